//! A real session fed through game state at its client's patch, with the
//! compiled-in defs or with a def folder loaded at run time, and the state
//! as text: shared by the `real_session` example and its test.

use std::error::Error;
use std::fmt::Write as _;
use std::fs::File;
use std::io::BufReader;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use tera_dynamic::Catalog;
use tera_game_state::{GameConfig, GameState, Submodules};
use tera_packets::ProtocolMap;
use tera_sessions::Event;
use tera_sessions::jsonl::JsonlReader;

/// The real session's files: `TERA_REAL_SESSIONS`, else `../shared/real-sessions`
/// beside the workspace; `None` when its session is not there.
pub fn real_sessions() -> Option<PathBuf> {
    let dir = std::env::var_os("TERA_REAL_SESSIONS").map_or_else(
        || Path::new(env!("CARGO_MANIFEST_DIR")).join("../../shared/real-sessions"),
        PathBuf::from,
    );
    dir.join(SESSION).is_file().then_some(dir)
}

/// The session: the live Classic+ server's side of a login, build 376012.
pub const SESSION: &str = "classic-plus-376012-server.jsonl";
/// Its build's protocol map.
pub const MAP: &str = "protocol.376012.map";
/// Its build's defs.
pub const DEFS: &str = "defs-376012";
/// The build's major patch (v100.02).
pub const PATCH: u32 = 100;

/// The build's map. The published map has a typo'd alias line
/// (`C_CANCEL_SKILL_STRICTLYY`, the code of `C_CANCEL_SKILL_STRICTLY`): the
/// loader leaves it out, the first name keeping the code, and the report
/// of what it left out goes to stderr.
pub fn map(dir: &Path) -> Result<ProtocolMap, Box<dyn Error>> {
    let loaded = tera_dynamic::load_protocol_map(dir.join(MAP)).map_err(|r| r.render(false))?;
    if !loaded.is_whole() {
        eprint!("{}", loaded.report.render(false));
    }
    Ok(loaded.map)
}

/// The build's defs, loaded at run time (a def with errors is left out,
/// as toolbox leaves it: said on stderr).
pub fn defs(dir: &Path) -> Result<Catalog, Box<dyn Error>> {
    let mut catalog = Catalog::new();
    let loaded = catalog.load_dir(dir.join(DEFS));
    if loaded == 0 {
        return Err(format!("{DEFS}: no def loads").into());
    }
    let left_out = catalog.problems().len();
    eprintln!("{DEFS}: {loaded} defs loaded at run time, {left_out} left out with errors");
    Ok(catalog)
}

/// What one run gave.
pub struct Run {
    /// The state after the last packet before `S_EXIT`, every property.
    pub before_exit: String,
    /// The same, in a few lines.
    pub summary: String,
    /// The game state after every packet.
    pub game: GameState,
    /// How many packets of the session game state reads (by the map).
    pub read: usize,
}

/// Feeds every packet of the session, both directions, to a game state of
/// every submodule at the build's patch, over `defs` when given.
pub fn run(dir: &Path, defs: Option<Catalog>) -> Result<Run, Box<dyn Error>> {
    let map = Arc::new(map(dir)?);
    let mut game = GameState::new(GameConfig {
        patch: Some(PATCH),
        submodules: Submodules::all(),
        defs: defs.map(Arc::new),
        ..GameConfig::default()
    });
    game.bind(Arc::clone(&map));
    let read_names: Vec<&str> = game.versions_read().iter().map(|v| v.0).collect();
    let mut before_exit = None;
    let mut read = 0;
    let events = JsonlReader::new(BufReader::new(File::open(dir.join(SESSION))?));
    for event in events {
        let Event::Packet(packet) = event? else {
            continue;
        };
        let name = map.name(packet.opcode()).unwrap_or_default();
        if name == "S_EXIT" {
            before_exit = Some((snapshot(&game), summary(&game)));
        }
        read += usize::from(read_names.contains(&name));
        game.feed(packet.opcode(), &packet.bytes);
    }
    let (before_exit, summary) = before_exit.ok_or("the session has no S_EXIT")?;
    Ok(Run {
        before_exit,
        summary,
        game,
        read,
    })
}

/// Every property of the state, in a fixed order (abnormalities without
/// their end, which is a time of the run).
pub fn snapshot(game: &GameState) -> String {
    let mut out = String::new();
    let me = game.me();
    let session = game.session();
    let _ = writeln!(
        out,
        "session {:?} account {:?} {:?} language {:?} tba {} loading {}",
        session.state(),
        session.account_id(),
        session.account_name(),
        session.language(),
        session.is_tba(),
        session.is_in_loading_screen()
    );
    let _ = writeln!(
        out,
        "me {:?} {:?} {:?} {:?} {:?} {:?} {:?} {:?} level {:?} zone {:?} alive {:?} status {:?} mount {:?}",
        me.game_id(),
        me.player_id(),
        me.server_id(),
        me.template_id(),
        me.class(),
        me.race(),
        me.gender(),
        me.name(),
        me.level(),
        me.zone(),
        me.alive(),
        me.status(),
        me.mount_id()
    );
    let _ = writeln!(out, "abnormalities {:?}", abnormalities(game));
    if let Some(inv) = game.inventory() {
        let _ = writeln!(
            out,
            "inventory money {:?} tcat {:?} item levels {:?} {:?} pockets {}\n{:?}\n{:?}",
            inv.money(),
            inv.tcat(),
            inv.equipment_item_level(),
            inv.total_item_level(),
            inv.pocket_count(),
            inv.pockets(),
            inv.equipment()
        );
    }
    if let Some(party) = game.party() {
        let _ = writeln!(out, "party {:?}", party.members());
    }
    if let Some(glyphs) = game.glyphs() {
        let _ = writeln!(out, "glyphs {:?}", glyphs.known());
    }
    if let Some(talents) = game.talents() {
        let _ = writeln!(out, "talents {:?}", talents.perks());
    }
    if let Some(contract) = game.contract() {
        let _ = writeln!(out, "contract {:?} {:?}", contract.kind(), contract.id());
    }
    if let Some(position) = game.position() {
        let _ = writeln!(out, "position {:?} {:?}", position.loc(), position.w());
    }
    if let Some(entities) = game.entities() {
        let mut all: Vec<_> = entities.iter().map(|e| format!("{e:?}")).collect();
        all.sort();
        let _ = writeln!(out, "entities {all:#?}");
    }
    out
}

/// The abnormalities on the player: id and stacks, by id.
fn abnormalities(game: &GameState) -> Vec<(u32, i32)> {
    let mut out: Vec<(u32, i32)> = game
        .me()
        .abnormalities()
        .map(|all| all.values().map(|a| (a.id, a.stacks)).collect())
        .unwrap_or_default();
    out.sort_unstable();
    out
}

/// Name, level, zone, inventory with money, abnormalities.
pub fn summary(game: &GameState) -> String {
    let me = game.me();
    let mut out = String::new();
    let _ = writeln!(
        out,
        "name {}, level {}, zone {}, class {:?}, status {:?}",
        me.name().unwrap_or("?"),
        me.level().map_or("?".into(), |l| l.to_string()),
        me.zone().map_or("?".into(), |z| z.to_string()),
        me.class(),
        me.status()
    );
    if let Some(inv) = game.inventory() {
        let bag = inv.bag();
        let _ = writeln!(
            out,
            "inventory: money {:?}; bag {} slots, {} used ({} items in all); {} pocket(s); equipment {} slots, {} used; item level {:?}",
            inv.money(),
            bag.map_or(0, |b| b.size),
            bag.map_or(0, |b| b.slots.len()),
            inv.bag_or_pocket_items()
                .map(|i| i64::from(i.amount))
                .sum::<i64>(),
            inv.pocket_count(),
            inv.equipment().size,
            inv.equipment().slots.len(),
            inv.equipment_item_level()
        );
    }
    let _ = writeln!(out, "abnormalities (id, stacks): {:?}", abnormalities(game));
    if let Some(party) = game.party() {
        let _ = writeln!(out, "party: {} member(s)", party.members().len());
    }
    if let Some(talents) = game.talents() {
        let _ = writeln!(out, "EP perks: {}", talents.perks().len());
    }
    if let Some(entities) = game.entities() {
        let _ = writeln!(out, "entities in sight: {}", entities.len());
    }
    out
}
