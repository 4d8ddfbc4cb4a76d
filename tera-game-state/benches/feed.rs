//! What game state costs per packet: `cargo bench -p tera-game-state --bench feed`.
//!
//! Every submodule on, bound to the compiled-in map. `load_typed`: the
//! proxy load run's typed packets (every fixed-size packet of the
//! compiled-in defs, game state's among them); `load_raw`: its raw packets
//! (opcodes no map names: one table lookup each); `session`: a whole game
//! session of the packets game state reads (login, zone, moves, combat,
//! party, inventory, entities...), each read and turned into events.
//! Throughput is packets: criterion's time per element is the cost per
//! packet.

use std::sync::Arc;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use tera_data::packets::{
    c_player_location, s_creature_change_hp, s_load_topo, s_login, s_npc_location, s_spawn_npc,
    s_user_status,
};
use tera_data::{Angle, Packet, Vec3};
use tera_game_state::{GameConfig, GameState, Submodules};
use tera_proxy::Direction;
use tera_proxy::harness::{Script, ScriptKind, typed_packets};

fn with_opcode(map: &tera_data::ProtocolMap, name: &str, mut packet: Vec<u8>) -> (u16, Vec<u8>) {
    let code = map.code(name).expect("in the compiled-in map");
    tera_data::set_opcode(&mut packet, code);
    (code, packet)
}

/// A session's packets: login and zone, then moves, combat and NPCs.
fn session(map: &tera_data::ProtocolMap) -> Vec<(u16, Vec<u8>)> {
    let me = 7u64;
    let login = s_login::V15 {
        game_id: me,
        template_id: 10101,
        name: "Ann".into(),
        alive: true,
        ..Default::default()
    };
    let mut out = vec![
        with_opcode(map, "S_LOGIN", login.encode().expect("encodes")),
        with_opcode(
            map,
            "S_LOAD_TOPO",
            s_load_topo::V3 {
                zone: 9713,
                ..Default::default()
            }
            .encode()
            .expect("encodes"),
        ),
    ];
    for i in 0..100u16 {
        let f = f32::from(i);
        let loc = Vec3 { x: f, y: f, z: 0.0 };
        let walk = c_player_location::V5 {
            loc,
            w: Angle(i as i16),
            dest: loc,
            ..Default::default()
        };
        out.push(with_opcode(
            map,
            "C_PLAYER_LOCATION",
            walk.encode().expect("encodes"),
        ));
        let npc = 1000 + u64::from(i % 10);
        if i < 10 {
            let spawn = s_spawn_npc::V12 {
                game_id: npc,
                loc,
                max_hp: 100,
                ..Default::default()
            };
            out.push(with_opcode(
                map,
                "S_SPAWN_NPC",
                spawn.encode().expect("encodes"),
            ));
        }
        let moved = s_npc_location::V3 {
            game_id: npc,
            loc,
            dest: loc,
            ..Default::default()
        };
        out.push(with_opcode(
            map,
            "S_NPC_LOCATION",
            moved.encode().expect("encodes"),
        ));
        let hp = s_creature_change_hp::V6 {
            target: npc,
            cur_hp: 100 - u64::from(i),
            max_hp: 100,
            ..Default::default()
        };
        out.push(with_opcode(
            map,
            "S_CREATURE_CHANGE_HP",
            hp.encode().expect("encodes"),
        ));
        let status = s_user_status::V4 {
            game_id: me,
            status: i32::from(i % 2),
            ..Default::default()
        };
        out.push(with_opcode(
            map,
            "S_USER_STATUS",
            status.encode().expect("encodes"),
        ));
    }
    out
}

fn game(map: &Arc<tera_data::ProtocolMap>) -> GameState {
    let mut game = GameState::new(GameConfig {
        submodules: Submodules::all(),
        ..GameConfig::default()
    });
    game.bind(Arc::clone(map));
    game
}

fn feed(c: &mut Criterion) {
    let map = Arc::new(tera_data::protocol_map().expect("a compiled-in map"));
    let typed: Vec<(u16, Vec<u8>)> = typed_packets(&map)
        .into_iter()
        .map(|p| (u16::from_le_bytes([p[2], p[3]]), p))
        .collect();
    let raw: Vec<(u16, Vec<u8>)> = Script::new(
        0x7e2a_5eed,
        0,
        Direction::ClientToServer,
        2_000,
        ScriptKind::Plain,
    )
    .map(|(_, _, p)| (u16::from_le_bytes([p[2], p[3]]), p))
    .collect();
    let mut group = c.benchmark_group("game_state");
    for (name, packets) in [
        ("load_typed", typed),
        ("load_raw", raw),
        ("session", session(&map)),
    ] {
        group.throughput(Throughput::Elements(packets.len() as u64));
        let mut state = game(&map);
        group.bench_function(name, |b| {
            b.iter(|| {
                for (code, packet) in &packets {
                    std::hint::black_box(state.feed(*code, packet).len());
                }
            });
        });
    }
    group.finish();
}

criterion_group!(benches, feed);
criterion_main!(benches);
