//! A port of SaltyMonkey/party-deaths-notifier: a beam of light (a fake
//! item on the ground) where a party member died, until they come back
//! to life, leave the party or the player changes zone. Tanks' and
//! healers' beams have their own items (`!pdn class` toggles that); `!pdn`
//! stops placing new beams, `!pdn clear` removes them all. The beams
//! cannot be looted.
//!
//! Party members, their classes and the users in sight come from game
//! state; where members die and their life come from two packets the
//! project does not compile in, whose defs the mod ships (`defs/`).

use std::collections::BTreeSet;

use serde::{Deserialize, Serialize};
use tera_data::Vec3;
use tera_data::packets::{
    c_try_loot_dropitem, s_despawn_dropitem, s_despawn_user, s_spawn_dropitem,
};
use tera_game_state::{Game, GameEvent, Submodules};
use tera_proxy::{
    Event, Filter, HookError, Mod, ModSettings, PacketDef, Settings, SettingsFile, Setup, Verdict,
};

const DEAD_LOCATION: &str = include_str!("defs/S_DEAD_LOCATION.2.def");
const MEMBER_STAT: &str = include_str!("defs/S_PARTY_MEMBER_STAT_UPDATE.4.def");

/// The settings, in `party-deaths-notifier.json`.
#[derive(Debug, Serialize, Deserialize)]
pub struct Options {
    /// Whether new beams are placed.
    pub enabled: bool,
    /// Whether tanks and healers get their own beams.
    pub class_based_beams: bool,
    /// The item shown as lancers' and brawlers' beams.
    pub tank_beam: i32,
    /// Priests' and mystics'.
    pub healer_beam: i32,
    /// Everyone else's (and everyone's without class beams).
    pub default_beam: i32,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            enabled: true,
            class_based_beams: true,
            tank_beam: 46703,
            healer_beam: 89141,
            default_beam: 89604,
        }
    }
}

impl ModSettings for Options {}

/// The mod on one connection.
#[derive(Debug)]
pub struct PartyDeathsNotifier {
    game: Game,
    settings: Settings<Options>,
    /// The beams placed, by the member's server and player id.
    beams: BTreeSet<u64>,
}

/// A member's beam: the dropped item's id, unique per character.
fn beam_id(server_id: u32, player_id: u32) -> u64 {
    u64::from(server_id) << 32 | u64::from(player_id)
}

fn toggle(on: &mut bool) -> &'static str {
    *on = !*on;
    if *on { "en" } else { "dis" }
}

impl PartyDeathsNotifier {
    /// The mod, reading `game`.
    pub fn new(game: Game) -> Self {
        game.initialize(Submodules::PARTY | Submodules::ENTITIES);
        PartyDeathsNotifier {
            game,
            settings: Settings::default(),
            beams: BTreeSet::new(),
        }
    }

    fn remove(&mut self, event: &mut Event<'_, Self>, id: u64) {
        if self.beams.remove(&id) {
            event.send(&s_despawn_dropitem::V4 { game_id: id }).ok();
        }
    }

    fn place(&mut self, event: &mut Event<'_, Self>, id: u64, class: u32, mut loc: Vec3) {
        if !self.settings.enabled {
            return;
        }
        let item = match class {
            1 | 10 if self.settings.class_based_beams => self.settings.tank_beam,
            6 | 7 if self.settings.class_based_beams => self.settings.healer_beam,
            _ => self.settings.default_beam,
        };
        self.remove(event, id);
        let me = self.game.with(|s| s.me().player_id()).unwrap_or_default();
        loc.z -= 35.0;
        let beam = s_spawn_dropitem::V9 {
            game_id: id,
            loc,
            item,
            amount: 1,
            expiry: 99999,
            owners: vec![me].into(),
            ..Default::default()
        };
        event.send(&beam).ok();
        self.beams.insert(id);
    }

    fn clear(&mut self, event: &mut Event<'_, Self>) {
        for id in std::mem::take(&mut self.beams) {
            event.send(&s_despawn_dropitem::V4 { game_id: id }).ok();
        }
    }

    /// Party member `game_id`'s beam id and class, if in the player's party.
    fn member(&self, game_id: u64) -> Option<(u64, u32)> {
        let state = self.game.state();
        let member = state.party()?.member(game_id)?;
        Some((beam_id(member.server_id, member.player_id), member.class))
    }
}

impl Mod for PartyDeathsNotifier {
    const NAME: &'static str = "party-deaths-notifier";

    fn settings(&mut self) -> Option<&mut dyn SettingsFile> {
        Some(&mut self.settings)
    }

    fn install(&mut self, setup: &mut Setup<Self>) -> Result<(), HookError> {
        Game::subscribe(setup, |me, event, game_event| match game_event {
            GameEvent::EnterGame
            | GameEvent::LeaveGame
            | GameEvent::EnterLoadingScreen
            | GameEvent::PartyLeave => me.clear(event),
            GameEvent::PartyMemberLeave(left) | GameEvent::PartyMemberKick(left) => {
                me.remove(event, beam_id(left.server_id, left.player_id));
            }
            // A dead member comes into sight.
            GameEvent::Spawn { game_id, .. } => {
                let user = me.game.with(|s| s.entities()?.get(*game_id).cloned());
                if let (Some((_, class)), Some(user)) = (me.member(*game_id), user)
                    && let (false, Some((server, player))) = (user.alive, user.user)
                {
                    me.place(event, beam_id(server, player), class, user.loc);
                }
            }
            _ => {}
        })?;
        let stat = PacketDef::parse("S_PARTY_MEMBER_STAT_UPDATE", 4, MEMBER_STAT)?;
        setup.hook(Self::shipped(&stat, |me, event, stat| {
            if stat["alive"].as_bool() == Some(true) {
                let id = |field: &str| stat[field].as_u32().unwrap_or_default();
                me.remove(event, beam_id(id("serverId"), id("playerId")));
            }
            Verdict::Pass
        }));
        let dead = PacketDef::parse("S_DEAD_LOCATION", 2, DEAD_LOCATION)?;
        setup.hook(Self::shipped(&dead, |me, event, dead| {
            let member = dead["gameId"].as_u64().and_then(|id| me.member(id));
            if let (Some((id, class)), Some(loc)) = (member, dead["loc"].as_vec3()) {
                me.place(event, id, class, loc);
            }
            Verdict::Pass
        }));
        setup.hook(Self::on::<s_despawn_user::V3>(|me, event, user| {
            // Out of view (type 1), the beam stays.
            if let (false, Some((id, _))) = (user.r#type == 1, me.member(user.game_id)) {
                me.remove(event, id);
            }
            Verdict::Pass
        }));
        let beams = Self::on::<c_try_loot_dropitem::V4>(|me, _, loot| {
            if me.beams.contains(&loot.game_id) {
                Verdict::Block
            } else {
                Verdict::Pass
            }
        });
        // Injected packets too (the original's `fake: null`); blocked ones
        // stay blocked.
        setup.hook(beams.order(999_999).filter(Filter::ALL));
        setup.hook(Self::command("pdn", |me, cmd| {
            match cmd.args().as_slice() {
                [] => {
                    let on = toggle(&mut me.settings.enabled);
                    cmd.reply(format!("Marking new targets were {on}abled"));
                }
                ["clear"] => {
                    me.clear(cmd.event());
                    cmd.reply("All beams were forcefully removed!");
                }
                ["class"] => {
                    let on = toggle(&mut me.settings.class_based_beams);
                    cmd.reply(format!("Class based beams were {on}abled"));
                }
                _ => cmd.reply("usage: !pdn [clear|class]"),
            }
        }));
        Ok(())
    }
}
