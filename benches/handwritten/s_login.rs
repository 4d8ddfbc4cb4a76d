//! `S_LOGIN.15` by hand: 303 bytes of fixed fields, a string, two byte
//! fields and a list of servants.

use tera_data::{Str, Visitor};

use super::wire::{Input, List, Output, Result, le, set};

/// The fixed run: the metadata words (14 bytes) and the fixed fields.
const FIXED: usize = 317;
/// A servant's block: `dbid, id, type, energy, slot`.
const SERVANT: usize = 24;

pub struct SLogin<'a> {
    pub template_id: i32,
    pub game_id: u64,
    pub server_id: u32,
    pub player_id: u32,
    pub action_mode: i32,
    pub alive: bool,
    pub status: i32,
    pub walk_speed: i32,
    pub run_speed: i32,
    pub appearance: u64,
    pub visible: bool,
    pub is_second_character: bool,
    pub level: u16,
    pub awakening_level: u32,
    pub prof_mineral: u32,
    pub prof_bug: u32,
    pub prof_herb: u32,
    pub prof_energy: u32,
    pub prof_pet: u16,
    pub pk_declare_count: i32,
    pub pk_kill_count: i32,
    pub total_xp: i64,
    pub level_xp: i64,
    pub total_level_xp: i64,
    pub ep_level: i32,
    pub ep_xp: i64,
    pub ep_daily_xp: i32,
    pub rest_bonus_xp: i64,
    pub max_rest_bonus_xp: i64,
    pub xp_bonus_percent: f32,
    pub drop_bonus_percent: f32,
    pub weapon: i32,
    pub body: i32,
    pub hand: i32,
    pub feet: i32,
    pub underwear: i32,
    pub head: i32,
    pub face: i32,
    pub server_time: i64,
    pub is_pk_server: bool,
    pub chat_ban_end_time: i64,
    pub title: u32,
    pub weapon_model: i32,
    pub body_model: i32,
    pub hand_model: i32,
    pub feet_model: i32,
    pub weapon_dye: u32,
    pub body_dye: u32,
    pub hand_dye: u32,
    pub feet_dye: u32,
    pub underwear_dye: u32,
    pub style_back_dye: u32,
    pub style_head_dye: u32,
    pub style_face_dye: u32,
    pub weapon_enchant: u32,
    pub is_world_event_target: bool,
    pub infamy: i32,
    pub show_face: bool,
    pub style_head: u32,
    pub style_face: u32,
    pub style_back: u32,
    pub style_weapon: u32,
    pub style_body: u32,
    pub style_footprint: u32,
    pub style_body_dye: u32,
    pub show_style: bool,
    pub title_count: i64,
    pub appearance2: i32,
    pub scale: f32,
    pub guild_logo_id: i32,
    pub class_change_level: u32,
    pub name: &'a [u8],
    pub details: &'a [u8],
    pub shape: &'a [u8],
    pub servants: List<'a>,
}

#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Servant {
    pub dbid: u64,
    pub id: u32,
    pub kind: u32,
    pub energy: u32,
    pub slot: i32,
}

impl Servant {
    #[inline]
    fn from(b: &[u8; SERVANT]) -> Self {
        Servant {
            dbid: le!(b, 0, u64),
            id: le!(b, 8, u32),
            kind: le!(b, 12, u32),
            energy: le!(b, 16, u32),
            slot: le!(b, 20, i32),
        }
    }

    #[inline]
    fn write(&self, b: &mut [u8; SERVANT]) {
        set!(b, 0, self.dbid);
        set!(b, 8, self.id);
        set!(b, 12, self.kind);
        set!(b, 16, self.energy);
        set!(b, 20, self.slot);
    }
}

impl<'a> SLogin<'a> {
    pub fn decode(packet: &'a [u8]) -> Result<Self> {
        let mut input = Input::packet(packet)?;
        let b: &[u8; FIXED] = input.fixed(4)?;
        let name = input.string(usize::from(le!(b, 4, u16)))?;
        let details = input.bytes(usize::from(le!(b, 6, u16)), usize::from(le!(b, 8, u16)))?;
        let shape = input.bytes(usize::from(le!(b, 10, u16)), usize::from(le!(b, 12, u16)))?;
        let servants = input.list(
            usize::from(le!(b, 0, u16)),
            usize::from(le!(b, 2, u16)),
            |input, at| input.fixed::<SERVANT>(at).map(drop),
        )?;
        Ok(SLogin {
            template_id: le!(b, 14, i32),
            game_id: le!(b, 18, u64),
            server_id: le!(b, 26, u32),
            player_id: le!(b, 30, u32),
            action_mode: le!(b, 34, i32),
            alive: b[38] != 0,
            status: le!(b, 39, i32),
            walk_speed: le!(b, 43, i32),
            run_speed: le!(b, 47, i32),
            appearance: le!(b, 51, u64),
            visible: b[59] != 0,
            is_second_character: b[60] != 0,
            level: le!(b, 61, u16),
            awakening_level: le!(b, 63, u32),
            prof_mineral: le!(b, 67, u32),
            prof_bug: le!(b, 71, u32),
            prof_herb: le!(b, 75, u32),
            prof_energy: le!(b, 79, u32),
            prof_pet: le!(b, 83, u16),
            pk_declare_count: le!(b, 85, i32),
            pk_kill_count: le!(b, 89, i32),
            total_xp: le!(b, 93, i64),
            level_xp: le!(b, 101, i64),
            total_level_xp: le!(b, 109, i64),
            ep_level: le!(b, 117, i32),
            ep_xp: le!(b, 121, i64),
            ep_daily_xp: le!(b, 129, i32),
            rest_bonus_xp: le!(b, 133, i64),
            max_rest_bonus_xp: le!(b, 141, i64),
            xp_bonus_percent: le!(b, 149, f32),
            drop_bonus_percent: le!(b, 153, f32),
            weapon: le!(b, 157, i32),
            body: le!(b, 161, i32),
            hand: le!(b, 165, i32),
            feet: le!(b, 169, i32),
            underwear: le!(b, 173, i32),
            head: le!(b, 177, i32),
            face: le!(b, 181, i32),
            server_time: le!(b, 185, i64),
            is_pk_server: b[193] != 0,
            chat_ban_end_time: le!(b, 194, i64),
            title: le!(b, 202, u32),
            weapon_model: le!(b, 206, i32),
            body_model: le!(b, 210, i32),
            hand_model: le!(b, 214, i32),
            feet_model: le!(b, 218, i32),
            weapon_dye: le!(b, 222, u32),
            body_dye: le!(b, 226, u32),
            hand_dye: le!(b, 230, u32),
            feet_dye: le!(b, 234, u32),
            underwear_dye: le!(b, 238, u32),
            style_back_dye: le!(b, 242, u32),
            style_head_dye: le!(b, 246, u32),
            style_face_dye: le!(b, 250, u32),
            weapon_enchant: le!(b, 254, u32),
            is_world_event_target: b[258] != 0,
            infamy: le!(b, 259, i32),
            show_face: b[263] != 0,
            style_head: le!(b, 264, u32),
            style_face: le!(b, 268, u32),
            style_back: le!(b, 272, u32),
            style_weapon: le!(b, 276, u32),
            style_body: le!(b, 280, u32),
            style_footprint: le!(b, 284, u32),
            style_body_dye: le!(b, 288, u32),
            show_style: b[292] != 0,
            title_count: le!(b, 293, i64),
            appearance2: le!(b, 301, i32),
            scale: le!(b, 305, f32),
            guild_logo_id: le!(b, 309, i32),
            class_change_level: le!(b, 313, u32),
            name,
            details,
            shape,
            servants,
        })
    }

    pub fn servants(&self) -> impl Iterator<Item = Servant> + 'a {
        let list = self.servants;
        list.blocks().map(move |at| Servant::from(list.fixed(at)))
    }

    pub fn encoded_len(&self) -> usize {
        4 + FIXED
            + self.name.len()
            + 2
            + self.details.len()
            + self.shape.len()
            + self.servants.len * (4 + SERVANT)
    }

    pub fn encode_into(&self, buf: &mut [u8]) -> Result<usize> {
        let len = self.encoded_len();
        let mut out = Output::packet(buf, len)?;
        let b: &mut [u8; FIXED] = out.fixed();
        b[..14].fill(0);
        set!(b, 14, self.template_id);
        set!(b, 18, self.game_id);
        set!(b, 26, self.server_id);
        set!(b, 30, self.player_id);
        set!(b, 34, self.action_mode);
        b[38] = u8::from(self.alive);
        set!(b, 39, self.status);
        set!(b, 43, self.walk_speed);
        set!(b, 47, self.run_speed);
        set!(b, 51, self.appearance);
        b[59] = u8::from(self.visible);
        b[60] = u8::from(self.is_second_character);
        set!(b, 61, self.level);
        set!(b, 63, self.awakening_level);
        set!(b, 67, self.prof_mineral);
        set!(b, 71, self.prof_bug);
        set!(b, 75, self.prof_herb);
        set!(b, 79, self.prof_energy);
        set!(b, 83, self.prof_pet);
        set!(b, 85, self.pk_declare_count);
        set!(b, 89, self.pk_kill_count);
        set!(b, 93, self.total_xp);
        set!(b, 101, self.level_xp);
        set!(b, 109, self.total_level_xp);
        set!(b, 117, self.ep_level);
        set!(b, 121, self.ep_xp);
        set!(b, 129, self.ep_daily_xp);
        set!(b, 133, self.rest_bonus_xp);
        set!(b, 141, self.max_rest_bonus_xp);
        set!(b, 149, self.xp_bonus_percent);
        set!(b, 153, self.drop_bonus_percent);
        set!(b, 157, self.weapon);
        set!(b, 161, self.body);
        set!(b, 165, self.hand);
        set!(b, 169, self.feet);
        set!(b, 173, self.underwear);
        set!(b, 177, self.head);
        set!(b, 181, self.face);
        set!(b, 185, self.server_time);
        b[193] = u8::from(self.is_pk_server);
        set!(b, 194, self.chat_ban_end_time);
        set!(b, 202, self.title);
        set!(b, 206, self.weapon_model);
        set!(b, 210, self.body_model);
        set!(b, 214, self.hand_model);
        set!(b, 218, self.feet_model);
        set!(b, 222, self.weapon_dye);
        set!(b, 226, self.body_dye);
        set!(b, 230, self.hand_dye);
        set!(b, 234, self.feet_dye);
        set!(b, 238, self.underwear_dye);
        set!(b, 242, self.style_back_dye);
        set!(b, 246, self.style_head_dye);
        set!(b, 250, self.style_face_dye);
        set!(b, 254, self.weapon_enchant);
        b[258] = u8::from(self.is_world_event_target);
        set!(b, 259, self.infamy);
        b[263] = u8::from(self.show_face);
        set!(b, 264, self.style_head);
        set!(b, 268, self.style_face);
        set!(b, 272, self.style_back);
        set!(b, 276, self.style_weapon);
        set!(b, 280, self.style_body);
        set!(b, 284, self.style_footprint);
        set!(b, 288, self.style_body_dye);
        b[292] = u8::from(self.show_style);
        set!(b, 293, self.title_count);
        set!(b, 301, self.appearance2);
        set!(b, 305, self.scale);
        set!(b, 309, self.guild_logo_id);
        set!(b, 313, self.class_change_level);
        out.string(8, self.name);
        out.bytes(10, self.details);
        out.bytes(14, self.shape);
        let mut link = out.list(4, self.servants.len);
        for servant in self.servants() {
            out.element(&mut link);
            servant.write(out.fixed());
        }
        Ok(len)
    }

    /// Every field, in definition order.
    pub fn visit<V: Visitor>(&self, v: &mut V) {
        v.field("templateId", &self.template_id);
        v.field("gameId", &self.game_id);
        v.field("serverId", &self.server_id);
        v.field("playerId", &self.player_id);
        v.field("actionMode", &self.action_mode);
        v.field("alive", &self.alive);
        v.field("status", &self.status);
        v.field("walkSpeed", &self.walk_speed);
        v.field("runSpeed", &self.run_speed);
        v.field("appearance", &self.appearance);
        v.field("visible", &self.visible);
        v.field("isSecondCharacter", &self.is_second_character);
        v.field("level", &self.level);
        v.field("awakeningLevel", &self.awakening_level);
        v.field("profMineral", &self.prof_mineral);
        v.field("profBug", &self.prof_bug);
        v.field("profHerb", &self.prof_herb);
        v.field("profEnergy", &self.prof_energy);
        v.field("profPet", &self.prof_pet);
        v.field("pkDeclareCount", &self.pk_declare_count);
        v.field("pkKillCount", &self.pk_kill_count);
        v.field("totalXp", &self.total_xp);
        v.field("levelXp", &self.level_xp);
        v.field("totalLevelXp", &self.total_level_xp);
        v.field("epLevel", &self.ep_level);
        v.field("epXp", &self.ep_xp);
        v.field("epDailyXp", &self.ep_daily_xp);
        v.field("restBonusXp", &self.rest_bonus_xp);
        v.field("maxRestBonusXp", &self.max_rest_bonus_xp);
        v.field("xpBonusPercent", &self.xp_bonus_percent);
        v.field("dropBonusPercent", &self.drop_bonus_percent);
        v.field("weapon", &self.weapon);
        v.field("body", &self.body);
        v.field("hand", &self.hand);
        v.field("feet", &self.feet);
        v.field("underwear", &self.underwear);
        v.field("head", &self.head);
        v.field("face", &self.face);
        v.field("serverTime", &self.server_time);
        v.field("isPkServer", &self.is_pk_server);
        v.field("chatBanEndTime", &self.chat_ban_end_time);
        v.field("title", &self.title);
        v.field("weaponModel", &self.weapon_model);
        v.field("bodyModel", &self.body_model);
        v.field("handModel", &self.hand_model);
        v.field("feetModel", &self.feet_model);
        v.field("weaponDye", &self.weapon_dye);
        v.field("bodyDye", &self.body_dye);
        v.field("handDye", &self.hand_dye);
        v.field("feetDye", &self.feet_dye);
        v.field("underwearDye", &self.underwear_dye);
        v.field("styleBackDye", &self.style_back_dye);
        v.field("styleHeadDye", &self.style_head_dye);
        v.field("styleFaceDye", &self.style_face_dye);
        v.field("weaponEnchant", &self.weapon_enchant);
        v.field("isWorldEventTarget", &self.is_world_event_target);
        v.field("infamy", &self.infamy);
        v.field("showFace", &self.show_face);
        v.field("styleHead", &self.style_head);
        v.field("styleFace", &self.style_face);
        v.field("styleBack", &self.style_back);
        v.field("styleWeapon", &self.style_weapon);
        v.field("styleBody", &self.style_body);
        v.field("styleFootprint", &self.style_footprint);
        v.field("styleBodyDye", &self.style_body_dye);
        v.field("showStyle", &self.show_style);
        v.field("titleCount", &self.title_count);
        v.field("appearance2", &self.appearance2);
        v.field("scale", &self.scale);
        v.field("guildLogoId", &self.guild_logo_id);
        v.field("classChangeLevel", &self.class_change_level);
        v.field("name", &Str::from_utf16le(self.name));
        v.bytes(self.details);
        v.bytes(self.shape);
        v.array(self.servants.len);
        for s in self.servants() {
            v.unsigned(s.dbid);
            v.unsigned(u64::from(s.id));
            v.unsigned(u64::from(s.kind));
            v.unsigned(u64::from(s.energy));
            v.signed(i64::from(s.slot));
        }
    }
}
