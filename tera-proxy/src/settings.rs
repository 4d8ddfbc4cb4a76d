//! Per-mod settings, as tera-toolbox's `mod.settings`: a serde type kept in
//! `DIR/NAME.json` as `{"version": N, "data": ...}`, loaded when the mod is
//! installed, saved when a call changed it and when the mod leaves the
//! connection, migrated from other versions by the type's own hook. A file
//! that does not load is reported and renamed beside (`NAME.json.bad`),
//! never lost, and the defaults are used.

use std::io::ErrorKind;
use std::ops::{Deref, DerefMut};
use std::path::{Path, PathBuf};

use serde::Serialize;
use serde::de::DeserializeOwned;
use serde_json::Value;

/// The data of a mod's settings: a serde type with a version number and a
/// migration from older versions.
///
/// ```
/// use serde::{Deserialize, Serialize};
/// use tera_proxy::ModSettings;
///
/// #[derive(Serialize, Deserialize)]
/// struct AfkSettings {
///     message: String,
/// }
///
/// impl Default for AfkSettings {
///     fn default() -> Self {
///         AfkSettings { message: "away".to_owned() }
///     }
/// }
///
/// impl ModSettings for AfkSettings {
///     const VERSION: u32 = 2;
///
///     fn migrate(version: u32, data: serde_json::Value) -> Result<Self, String> {
///         match version {
///             // Version 1 kept the message under another name.
///             1 => Ok(AfkSettings {
///                 message: data["reply"].as_str().ok_or("no reply in version 1")?.to_owned(),
///             }),
///             _ => Err(format!("no migration from version {version}")),
///         }
///     }
/// }
/// ```
pub trait ModSettings: Serialize + DeserializeOwned + Default + Send + 'static {
    /// The version of the type's shape, written in the file beside the
    /// data. A file of another version is handed to
    /// [`migrate`](ModSettings::migrate).
    const VERSION: u32 = 1;

    /// The settings from a file of `version` (not [`VERSION`](Self::VERSION)):
    /// its `data`. The default reads the data as this version's.
    ///
    /// # Errors
    /// Why the data cannot be read: the file is then kept beside, reported,
    /// and the defaults are used.
    fn migrate(version: u32, data: Value) -> Result<Self, String> {
        serde_json::from_value(data)
            .map_err(|e| format!("version {version} data do not read as this version's: {e}"))
    }
}

/// A problem with a mod's settings file: it did not load (the defaults are
/// used; the file is kept beside, renamed) or could not be saved.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("mod {module}: settings {}: {reason}{}", path.display(), kept.as_ref().map(|k| format!(" (kept as {})", k.display())).unwrap_or_default())]
pub struct SettingsProblem {
    /// The mod.
    pub module: &'static str,
    /// The settings file.
    pub path: PathBuf,
    /// What went wrong.
    pub reason: String,
    /// Where the file that did not load was moved, if it was.
    pub kept: Option<PathBuf>,
}

/// A mod's settings: its [`ModSettings`] value, read through `Deref` and
/// changed through `DerefMut` (a change is saved once the hook, command or
/// timer that made it returns), and the file they are kept in.
///
/// A mod holds one in its state and returns it from
/// [`Mod::settings`](crate::Mod::settings); the connection loads it when
/// the mod is installed (from [`ProxyConfig::settings_dir`](crate::ProxyConfig::settings_dir))
/// and saves it when changed and when the mod leaves. Without a settings
/// folder the settings are the defaults and are not saved.
#[derive(Debug, Default)]
pub struct Settings<S> {
    value: S,
    path: Option<PathBuf>,
    /// The file's text as last read or written, to skip writing the same.
    saved: Option<String>,
    dirty: bool,
}

impl<S> Deref for Settings<S> {
    type Target = S;

    fn deref(&self) -> &S {
        &self.value
    }
}

impl<S> DerefMut for Settings<S> {
    fn deref_mut(&mut self) -> &mut S {
        self.dirty = true;
        &mut self.value
    }
}

impl<S: ModSettings> Settings<S> {
    /// Settings of `value`, kept in no file until loaded.
    pub fn new(value: S) -> Self {
        Settings {
            value,
            path: None,
            saved: None,
            dirty: false,
        }
    }

    /// The file the settings are kept in, once loaded from a folder.
    #[must_use]
    pub fn path(&self) -> Option<&Path> {
        self.path.as_deref()
    }

    /// Reads the settings of mod `module` from `dir/module.json`: the
    /// defaults when there is no file; on a file that does not load, the
    /// defaults and the problem (the file is renamed beside, so that the
    /// next save does not overwrite it).
    pub fn load(dir: &Path, module: &'static str) -> (Settings<S>, Option<SettingsProblem>) {
        let path = dir.join(format!("{module}.json"));
        let mut settings = Settings::new(S::default());
        let problem = match std::fs::read_to_string(&path) {
            Err(e) if e.kind() == ErrorKind::NotFound => None,
            Err(e) => {
                // Unreadable but maybe fine: never write over it.
                let problem = SettingsProblem {
                    module,
                    path,
                    reason: format!("cannot read it ({e}); the defaults are used and not saved"),
                    kept: None,
                };
                return (settings, Some(problem));
            }
            Ok(text) => match read::<S>(&text) {
                Ok((value, migrated)) => {
                    settings.value = value;
                    settings.dirty = migrated;
                    settings.saved = Some(text);
                    None
                }
                Err(reason) => {
                    let kept = keep_beside(&path);
                    let unmoved = kept.is_none();
                    let problem = SettingsProblem {
                        kept,
                        module,
                        path: path.clone(),
                        reason: format!("{reason}; the defaults are used"),
                    };
                    if unmoved {
                        // Saving would write over the only copy.
                        return (settings, Some(problem));
                    }
                    Some(problem)
                }
            },
        };
        settings.path = Some(path);
        (settings, problem)
    }

    /// Writes the settings to their file (through a temporary file, so that
    /// a crash leaves the old or the new file whole). Without a file, does
    /// nothing.
    ///
    /// # Errors
    /// [`SettingsProblem`] when the folder or file cannot be written.
    pub fn save(&mut self, module: &'static str) -> Result<(), SettingsProblem> {
        self.write(module, true)
    }

    /// Writes the settings if they were changed (through `DerefMut`) since
    /// they were read or written, and differ from what was.
    ///
    /// # Errors
    /// As [`save`](Settings::save).
    pub fn save_changes(&mut self, module: &'static str) -> Result<(), SettingsProblem> {
        if !self.dirty {
            return Ok(());
        }
        self.write(module, false)
    }

    fn write(&mut self, module: &'static str, always: bool) -> Result<(), SettingsProblem> {
        self.dirty = false;
        let Some(path) = &self.path else {
            return Ok(());
        };
        let problem = |reason: String| SettingsProblem {
            module,
            path: path.clone(),
            reason,
            kept: None,
        };
        let file = File {
            version: S::VERSION,
            data: &self.value,
        };
        let text = serde_json::to_string_pretty(&file)
            .map_err(|e| problem(format!("cannot serialize them: {e}")))?;
        if !always && self.saved.as_deref() == Some(text.as_str()) {
            return Ok(());
        }
        if let Some(dir) = path.parent() {
            std::fs::create_dir_all(dir)
                .map_err(|e| problem(format!("cannot create the folder: {e}")))?;
        }
        let temporary = path.with_extension("json.tmp");
        std::fs::write(&temporary, &text)
            .and_then(|()| std::fs::rename(&temporary, path))
            .map_err(|e| problem(format!("cannot write them: {e}")))?;
        self.saved = Some(text);
        Ok(())
    }
}

/// The file's shape, as tera-toolbox writes it.
#[derive(Serialize)]
struct File<'a, S> {
    version: u32,
    data: &'a S,
}

/// The settings in a file's text, and whether they were migrated.
fn read<S: ModSettings>(text: &str) -> Result<(S, bool), String> {
    let file: Value = serde_json::from_str(text).map_err(|e| format!("not JSON: {e}"))?;
    let (Some(version), Some(data)) = (file.get("version"), file.get("data")) else {
        return Err("not {\"version\": N, \"data\": ...}".to_owned());
    };
    let version = version
        .as_u64()
        .and_then(|v| u32::try_from(v).ok())
        .ok_or_else(|| format!("version {version} is not a number of 32 bits"))?;
    if version == S::VERSION {
        let value = serde_json::from_value(data.clone())
            .map_err(|e| format!("the data do not read as version {version}: {e}"))?;
        Ok((value, false))
    } else {
        let value = S::migrate(version, data.clone())
            .map_err(|e| format!("migration from version {version}: {e}"))?;
        Ok((value, true))
    }
}

/// Renames a settings file that did not load to the first free name of
/// `NAME.json.bad`, `NAME.json.bad.2`, ...: where it went, or `None` when
/// it could not be moved.
fn keep_beside(path: &Path) -> Option<PathBuf> {
    let name = path.file_name()?.to_string_lossy().into_owned();
    let free = (1..1000u32)
        .map(|n| match n {
            1 => path.with_file_name(format!("{name}.bad")),
            n => path.with_file_name(format!("{name}.bad.{n}")),
        })
        .find(|candidate| !candidate.exists())?;
    std::fs::rename(path, &free).ok()?;
    Some(free)
}

/// A mod's [`Settings`], whatever their type: what the connection loads and
/// saves. Implemented by [`Settings`] only.
pub trait SettingsFile: Send {
    /// Loads the settings of mod `module` from `dir` (see
    /// [`Settings::load`]), in place.
    fn load_from(&mut self, dir: &Path, module: &'static str) -> Option<SettingsProblem>;

    /// Saves them if changed (see [`Settings::save_changes`]).
    ///
    /// # Errors
    /// As [`Settings::save`].
    fn save_changes(&mut self, module: &'static str) -> Result<(), SettingsProblem>;

    /// Saves them (see [`Settings::save`]).
    ///
    /// # Errors
    /// As [`Settings::save`].
    fn save(&mut self, module: &'static str) -> Result<(), SettingsProblem>;
}

impl<S: ModSettings> SettingsFile for Settings<S> {
    fn load_from(&mut self, dir: &Path, module: &'static str) -> Option<SettingsProblem> {
        let (loaded, problem) = Settings::load(dir, module);
        *self = loaded;
        problem
    }

    fn save_changes(&mut self, module: &'static str) -> Result<(), SettingsProblem> {
        Settings::save_changes(self, module)
    }

    fn save(&mut self, module: &'static str) -> Result<(), SettingsProblem> {
        Settings::save(self, module)
    }
}
