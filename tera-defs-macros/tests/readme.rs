//! The example of README.md, compiled and run here; `readme_holds_this_code`
//! checks that the README shows exactly the code between the markers.

// README BEGIN
use tera_packets::{Array, Block, Packet, Str};

/// `uint32 id; ref list; int32 mid; ref name; string name; array list { int32 v }`
#[derive(Debug, PartialEq, Packet)]
#[tera(name = "S_REFS", version = 1)]
struct Refs<'a> {
    id: u32,
    #[tera(refs_before(list))]
    mid: i32,
    #[tera(refs_before(name))]
    name: Str<'a>,
    list: Array<'a, V>,
}

#[derive(Debug, Clone, PartialEq, Block)]
struct V {
    v: i32,
}

/// `int32 a; object o { uint16 b }; int16 e; object o { string s }`
#[derive(Debug, PartialEq, Packet)]
#[tera(name = "S_SPLIT", version = 2)]
struct Split<'a> {
    a: i32,
    #[tera(parts_after(e))]
    o: O<'a>,
    e: i16,
}

#[derive(Debug, Default, Clone, PartialEq, Block)]
struct O<'a> {
    b: u16,
    #[tera(part = 1)]
    s: Str<'a>,
}

fn main() -> Result<(), tera_packets::Error> {
    let refs = Refs {
        id: 0x11,
        mid: 0x22,
        name: "n".into(),
        list: vec![V { v: 0x33 }].into(),
    };
    let bytes = refs.encode()?;
    // The slots sit where the refs are: `list` after `id`, `name` after `mid`.
    assert_eq!(
        bytes,
        [
            0x1e, 0, 0, 0, // header: 30 bytes, opcode 0
            0x11, 0, 0, 0, // id
            1, 0, 0x16, 0, // list: count 1, offset 22
            0x22, 0, 0, 0, // mid
            0x12, 0, // name: offset 18
            b'n', 0, 0, 0, // "n"
            0x16, 0, 0, 0, 0x33, 0, 0, 0, // list[0]: here 22, next 0, v
        ]
    );
    assert_eq!(Refs::decode(&bytes)?, refs);

    let split = Split {
        a: 1,
        o: O {
            b: 2,
            s: "S".into(),
        },
        e: 3,
    };
    let bytes = split.encode()?;
    // `o.s`'s slot is hoisted to the root; `o.b` is inline, `o.s` after `e`.
    assert_eq!(
        bytes,
        [
            0x12, 0, 0, 0, // header: 18 bytes
            0x0e, 0, // o.s: offset 14
            1, 0, 0, 0, // a
            2, 0, // o.b
            3, 0, // e
            b'S', 0, 0, 0, // o.s: "S"
        ]
    );
    assert_eq!(Split::decode(&bytes)?, split);
    Ok(())
}
// README END

#[test]
fn readme_example_runs() {
    main().unwrap();
}

#[test]
fn readme_holds_this_code() {
    let this = include_str!("readme.rs").replace("\r\n", "\n");
    let code = this
        .split("// README BEGIN\n")
        .nth(1)
        .and_then(|rest| rest.split("// README END").next())
        .unwrap();
    let readme = include_str!("../README.md").replace("\r\n", "\n");
    assert!(
        readme.contains(&format!("```rust\n{code}```")),
        "README.md does not hold the example of tests/readme.rs; copy it over"
    );
}
