//! `S_EACH_SKILL_RESULT.15` by hand: the `reaction` object is split around
//! `damageType` on the wire, and its `animSeq` list has the packet's only
//! metadata words.

use tera_data::Visitor;

use super::wire::{Input, List, Output, Result, le, put_vec3, set, vec3};

/// The fixed run: `animSeq`'s `count, offset`, then 119 bytes of fields.
const FIXED: usize = 123;
/// An `animSeq` element: `duration, xyRate, zRate, distance`.
const ANIM: usize = 16;

pub struct SEachSkillResult<'a> {
    pub source: u64,
    pub owner: u64,
    pub target: u64,
    pub template_id: i32,
    pub skill: u64,
    pub origin_skill: u64,
    pub targeting: i32,
    pub area: i32,
    pub id: u32,
    pub time: i32,
    pub value: i64,
    pub kind: i16,
    pub noct_effect: i16,
    pub crit: bool,
    pub stack_explode: bool,
    pub super_armor: bool,
    pub super_armor_id: i32,
    pub hit_cylinder_id: i32,
    pub reaction: Reaction<'a>,
    pub damage_type: i16,
}

pub struct Reaction<'a> {
    pub enable: bool,
    pub push: bool,
    pub air: bool,
    pub air_chain: bool,
    pub loc: [f32; 3],
    pub w: i16,
    pub skill: u64,
    pub stage: i32,
    pub id: u32,
    pub anim_seq: List<'a>,
}

#[derive(Debug, Clone, Copy, PartialEq)]
pub struct AnimSeq {
    pub duration: i32,
    pub xy_rate: f32,
    pub z_rate: f32,
    pub distance: f32,
}

impl AnimSeq {
    #[inline]
    fn from(b: &[u8; ANIM]) -> Self {
        AnimSeq {
            duration: le!(b, 0, i32),
            xy_rate: le!(b, 4, f32),
            z_rate: le!(b, 8, f32),
            distance: le!(b, 12, f32),
        }
    }

    #[inline]
    fn write(&self, b: &mut [u8; ANIM]) {
        set!(b, 0, self.duration);
        set!(b, 4, self.xy_rate);
        set!(b, 8, self.z_rate);
        set!(b, 12, self.distance);
    }
}

impl<'a> SEachSkillResult<'a> {
    pub fn decode(packet: &'a [u8]) -> Result<Self> {
        let mut input = Input::packet(packet)?;
        let b: &[u8; FIXED] = input.fixed(4)?;
        let anim_seq = input.list(
            usize::from(le!(b, 0, u16)),
            usize::from(le!(b, 2, u16)),
            |input, at| input.fixed::<ANIM>(at).map(drop),
        )?;
        Ok(SEachSkillResult {
            source: le!(b, 4, u64),
            owner: le!(b, 12, u64),
            target: le!(b, 20, u64),
            template_id: le!(b, 28, i32),
            skill: le!(b, 32, u64),
            origin_skill: le!(b, 40, u64),
            targeting: le!(b, 48, i32),
            area: le!(b, 52, i32),
            id: le!(b, 56, u32),
            time: le!(b, 60, i32),
            value: le!(b, 64, i64),
            kind: le!(b, 72, i16),
            noct_effect: le!(b, 74, i16),
            crit: b[76] != 0,
            stack_explode: b[77] != 0,
            super_armor: b[78] != 0,
            super_armor_id: le!(b, 79, i32),
            hit_cylinder_id: le!(b, 83, i32),
            reaction: Reaction {
                enable: b[87] != 0,
                push: b[88] != 0,
                air: b[89] != 0,
                air_chain: b[90] != 0,
                loc: vec3(b, 93),
                w: le!(b, 105, i16),
                skill: le!(b, 107, u64),
                stage: le!(b, 115, i32),
                id: le!(b, 119, u32),
                anim_seq,
            },
            damage_type: le!(b, 91, i16),
        })
    }

    pub fn anim_seq(&self) -> impl Iterator<Item = AnimSeq> + 'a {
        let list = self.reaction.anim_seq;
        list.blocks().map(move |at| AnimSeq::from(list.fixed(at)))
    }

    pub fn encoded_len(&self) -> usize {
        4 + FIXED + self.reaction.anim_seq.len * (4 + ANIM)
    }

    pub fn encode_into(&self, buf: &mut [u8]) -> Result<usize> {
        let len = self.encoded_len();
        let mut out = Output::packet(buf, len)?;
        let b: &mut [u8; FIXED] = out.fixed();
        set!(b, 4, self.source);
        set!(b, 12, self.owner);
        set!(b, 20, self.target);
        set!(b, 28, self.template_id);
        set!(b, 32, self.skill);
        set!(b, 40, self.origin_skill);
        set!(b, 48, self.targeting);
        set!(b, 52, self.area);
        set!(b, 56, self.id);
        set!(b, 60, self.time);
        set!(b, 64, self.value);
        set!(b, 72, self.kind);
        set!(b, 74, self.noct_effect);
        b[76] = u8::from(self.crit);
        b[77] = u8::from(self.stack_explode);
        b[78] = u8::from(self.super_armor);
        set!(b, 79, self.super_armor_id);
        set!(b, 83, self.hit_cylinder_id);
        let r = &self.reaction;
        b[87] = u8::from(r.enable);
        b[88] = u8::from(r.push);
        b[89] = u8::from(r.air);
        b[90] = u8::from(r.air_chain);
        set!(b, 91, self.damage_type);
        put_vec3(b, 93, r.loc);
        set!(b, 105, r.w);
        set!(b, 107, r.skill);
        set!(b, 115, r.stage);
        set!(b, 119, r.id);
        let mut link = out.list(4, r.anim_seq.len);
        for anim in self.anim_seq() {
            out.element(&mut link);
            anim.write(out.fixed());
        }
        Ok(len)
    }

    /// Every field, in the order of the generated struct (`reaction` whole,
    /// then `damageType`).
    pub fn visit<V: Visitor>(&self, v: &mut V) {
        v.unsigned(self.source);
        v.unsigned(self.owner);
        v.unsigned(self.target);
        v.signed(i64::from(self.template_id));
        v.unsigned(self.skill);
        v.unsigned(self.origin_skill);
        v.signed(i64::from(self.targeting));
        v.signed(i64::from(self.area));
        v.unsigned(u64::from(self.id));
        v.signed(i64::from(self.time));
        v.signed(self.value);
        v.signed(i64::from(self.kind));
        v.signed(i64::from(self.noct_effect));
        v.bool(self.crit);
        v.bool(self.stack_explode);
        v.bool(self.super_armor);
        v.signed(i64::from(self.super_armor_id));
        v.signed(i64::from(self.hit_cylinder_id));
        let r = &self.reaction;
        v.bool(r.enable);
        v.bool(r.push);
        v.bool(r.air);
        v.bool(r.air_chain);
        for c in r.loc {
            v.float(f64::from(c));
        }
        v.signed(i64::from(r.w));
        v.unsigned(r.skill);
        v.signed(i64::from(r.stage));
        v.unsigned(u64::from(r.id));
        v.array(r.anim_seq.len);
        for a in self.anim_seq() {
            v.signed(i64::from(a.duration));
            v.float(f64::from(a.xy_rate));
            v.float(f64::from(a.z_rate));
            v.float(f64::from(a.distance));
        }
        v.signed(i64::from(self.damage_type));
    }
}
