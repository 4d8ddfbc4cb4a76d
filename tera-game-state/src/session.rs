//! The session: lobby, game, loading screen and the account.

/// Where the client is (tera-game-state's `GameStates`).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum SessionState {
    /// Neither in the lobby nor in game (before login, after exit).
    #[default]
    Invalid,
    /// The character list.
    CharacterLobby,
    /// Playing a character.
    InGame,
}

/// The session-level state (`mod.game.isIngame`, `isInLoadingScreen`,
/// `language`, `accountId`, `accountName`, `isTBA`).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Session {
    pub(crate) state: SessionState,
    pub(crate) loading_screen: bool,
    pub(crate) language: Option<u32>,
    pub(crate) account_id: Option<u64>,
    pub(crate) account_name: Option<String>,
    pub(crate) tba: bool,
    pub(crate) server_id: Option<u32>,
}

impl Session {
    /// Lobby, game or neither.
    #[must_use]
    pub fn state(&self) -> SessionState {
        self.state
    }

    /// `isIngame`.
    #[must_use]
    pub fn is_ingame(&self) -> bool {
        self.state == SessionState::InGame
    }

    /// `isInLoadingScreen`.
    #[must_use]
    pub fn is_in_loading_screen(&self) -> bool {
        self.loading_screen
    }

    /// `language` (`C_LOGIN_ARBITER`).
    #[must_use]
    pub fn language(&self) -> Option<u32> {
        self.language
    }

    /// `accountId` (`S_LOGIN_ACCOUNT_INFO`).
    #[must_use]
    pub fn account_id(&self) -> Option<u64> {
        self.account_id
    }

    /// `accountName` (`C_LOGIN_ARBITER`).
    #[must_use]
    pub fn account_name(&self) -> Option<&str> {
        self.account_name.as_deref()
    }

    /// `serverId`: the connection's server
    /// ([`GameConfig::server_id`](crate::GameConfig::server_id)).
    #[must_use]
    pub fn server_id(&self) -> Option<u32> {
        self.server_id
    }

    /// `isTBA`: playing a hero (`S_TBA_SELECT_USER`).
    #[must_use]
    pub fn is_tba(&self) -> bool {
        self.tba
    }
}
