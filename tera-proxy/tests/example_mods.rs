//! The example mods (`examples/mods/`) on a relayed connection, driven by
//! the scripted client and server. Their packets are versions both the
//! project's defs and the corpus have.

#[path = "../examples/mods/afk.rs"]
mod afk;
mod common;
#[path = "../examples/mods/skill_resets.rs"]
mod skill_resets;

use common::{connection, enc, exchange, map, op};
use tera_data::Packet;
use tera_data::packets::{
    c_chat, c_whisper, s_crest_message, s_dungeon_event_message, s_private_chat, s_whisper,
};
use tera_proxy::harness::{keys, loopback};

fn is<'a, P: Packet<'a>>(p: &[u8]) -> bool {
    map().code(P::NAME) == Some(op(p))
}

#[tokio::test]
async fn skill_resets_shows_a_reset_and_blocks_the_game_message() {
    let conn = connection();
    conn.add_mod(skill_resets::SkillResets::default()).unwrap();
    let crest = |r#type, skill| {
        enc(&s_crest_message::V2 {
            unk: 0,
            r#type,
            skill,
        })
    };
    let other = crest(3, 1000);
    let ex = exchange(
        conn,
        &[],
        &[crest(6, 120_100), other.clone(), crest(6, 70_300)],
    )
    .await;
    ex.result.unwrap();
    assert_eq!(
        ex.client_got.len(),
        3,
        "two notices and the other crest message"
    );
    let notices: Vec<_> = ex
        .client_got
        .iter()
        .filter(|p| is::<s_dungeon_event_message::V2>(p))
        .map(|p| s_dungeon_event_message::V2::decode(p).unwrap())
        .collect();
    assert_eq!(notices.len(), 2);
    assert!(notices[0].message.to_string().contains("skill__0__120100"));
    assert!(notices[1].message.to_string().contains("skill__0__70300"));
    assert!(notices.iter().all(|n| n.r#type == 2 && !n.chat));
    assert_eq!(
        ex.client_got[1], other,
        "a crest message of another type passes"
    );
}

#[tokio::test]
async fn skill_resets_lets_the_game_message_through_when_its_settings_say_so() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join("skill-resets.json"),
        r#"{"version": 1, "data": {"show_system_message": true}}"#,
    )
    .unwrap();
    let conn = tera_proxy::Connection::new(tera_proxy::ProxyConfig {
        maps: tera_proxy::MapSource::test_map(),
        settings_dir: Some(dir.path().to_owned()),
        ..tera_proxy::ProxyConfig::default()
    });
    conn.add_mod(skill_resets::SkillResets::default()).unwrap();
    let reset = enc(&s_crest_message::V2 {
        unk: 0,
        r#type: 6,
        skill: 120_100,
    });
    let ex = exchange(conn, &[], std::slice::from_ref(&reset)).await;
    ex.result.unwrap();
    assert_eq!(ex.client_got.len(), 2, "the notice and the game's message");
    assert!(is::<s_dungeon_event_message::V2>(&ex.client_got[0]));
    assert_eq!(ex.client_got[1], reset);
}

#[tokio::test]
async fn afk_answers_whispers_while_on_and_its_command_stays_in_the_proxy() {
    let conn = connection();
    conn.add_mod(afk::Afk::default()).unwrap();
    let whisper = |from: &str, to: &str| {
        enc(&s_whisper::V4 {
            name: from.into(),
            recipient: to.into(),
            message: "hello?".into(),
            sender_server_id: 27,
            ..Default::default()
        })
    };
    let say = |line: &str| {
        enc(&c_chat::V1 {
            channel: 0,
            message: line.into(),
        })
    };
    // Off: no answer. `!afk on`, then whispers from Ann (twice), the
    // server's echo of the answer, and Bob.
    let up = [say("!afk on"), say("<FONT>hi all</FONT>")];
    let down = [
        whisper("Ann", "Elin"),
        whisper("Ann", "Elin"),
        whisper("Elin", "Ann"),
        whisper("Bob", "Elin"),
    ];
    let conn_off = connection();
    conn_off.add_mod(afk::Afk::default()).unwrap();
    let off = exchange(conn_off, &[], &down[..1]).await;
    off.result.unwrap();
    assert!(off.server_got.is_empty(), "afk is off by default");

    // `!afk on` first; once its reply is back, the whispers.
    let mut lb = loopback(conn, &keys(12)).await.unwrap();
    lb.client.writer.send(&[&up[0], &up[1]]).await.unwrap();
    let reply = lb.client.reader.recv().await.unwrap().unwrap();
    assert!(is::<s_private_chat::V1>(&reply));
    assert_eq!(
        s_private_chat::V1::decode(&reply).unwrap().message,
        "afk is on"
    );
    let chat = lb.server.reader.recv().await.unwrap().unwrap();
    assert_eq!(chat[..], up[1], "the command line never reaches the server");
    lb.server
        .writer
        .send(&down.iter().map(Vec::as_slice).collect::<Vec<_>>())
        .await
        .unwrap();
    for sent in &down {
        let got = lb.client.reader.recv().await.unwrap().unwrap();
        assert_eq!(got[..], sent[..], "every whisper reaches the player");
    }
    let mut targets = Vec::new();
    for _ in 0..2 {
        let answer = lb.server.reader.recv().await.unwrap().unwrap();
        let answer = c_whisper::V2::decode(&answer).unwrap();
        assert_eq!(answer.target_server, 27);
        targets.push(answer.target.to_string());
    }
    assert_eq!(targets, ["Ann", "Bob"], "once per sender, not the echo");
    // Nothing more: the stream ends right after the end of the client's.
    lb.client.writer.shutdown().await.unwrap();
    assert!(lb.server.reader.recv().await.unwrap().is_none());
}
