//! The regressions file of one property: read, merged under a lock, written atomically.

use super::inflight::InFlightCase;
use super::{file_name, in_dir, stem, unique_suffix, with_suffix, Entry, FORMAT_VERSION, LOCK};
use refgen_core::choice::ChoiceTree;
use refgen_core::gen::Gen;
use refgen_core::interpret::reflect;
use serde::{Deserialize, Serialize};
use std::fs::{self, File, OpenOptions};
use std::io::{self, Write};
use std::path::{Path, PathBuf};

#[derive(Debug, Serialize, Deserialize)]
struct FileFormat {
    version: u32,
    property: String,
    cases: Vec<Entry>,
}

/// The version-1 format: trees nested.
#[derive(Deserialize)]
struct FileV1 {
    cases: Vec<EntryV1>,
}

#[derive(Deserialize)]
struct EntryV1 {
    tree: ChoiceTree,
    #[serde(default)]
    reason: String,
}

#[derive(Deserialize)]
struct Header {
    version: u32,
}

/// The remembered cases of one property.
#[derive(Debug, Clone)]
pub struct Store {
    /// The file.
    pub path: PathBuf,
    /// The property's name.
    pub property: String,
    /// The cases, oldest first.
    pub entries: Vec<Entry>,
}

/// What reading a regressions file found.
enum Read {
    Missing,
    Cases(Vec<Entry>),
    /// It cannot be read or understood: why.
    Bad(String),
}

fn read(path: &Path) -> Read {
    let text = match fs::read_to_string(path) {
        Ok(t) => t,
        Err(e) if e.kind() == io::ErrorKind::NotFound => return Read::Missing,
        Err(e) => return Read::Bad(format!("cannot read the regressions file {}: {e}", path.display())),
    };
    let corrupt = |e: serde_json::Error| Read::Bad(format!("the regressions file {} is corrupt ({e})", path.display()));
    match serde_json::from_str::<Header>(&text) {
        Err(e) => corrupt(e),
        Ok(Header { version: FORMAT_VERSION }) => match serde_json::from_str::<FileFormat>(&text) {
            Ok(f) => Read::Cases(f.cases),
            Err(e) => corrupt(e),
        },
        Ok(Header { version: 1 }) => match serde_json::from_str::<FileV1>(&text) {
            Ok(f) => Read::Cases(f.cases.into_iter().map(|e| Entry { tree: e.tree, reason: e.reason }).collect()),
            Err(e) => corrupt(e),
        },
        Ok(Header { version }) => Read::Bad(format!(
            "the regressions file {} has format version {version}, but this version of reflect reads versions 1 and {FORMAT_VERSION}",
            path.display()
        )),
    }
}

/// Holds the regressions directory's lock while it lives.
struct DirLock(#[allow(dead_code)] File);

impl DirLock {
    fn take(dir: &Path) -> io::Result<DirLock> {
        let f = in_dir(dir, || OpenOptions::new().create(true).truncate(false).write(true).open(dir.join(LOCK)))?;
        f.lock()?;
        Ok(DirLock(f))
    }
}

impl Store {
    /// Opens the store of `property` in `dir`. A missing file is an empty
    /// store; a file that cannot be read or understood is an empty store and
    /// a warning (the second value) naming the path.
    pub fn open(dir: &Path, property: &str) -> (Store, Option<String>) {
        let path = dir.join(file_name(property));
        let mut store = Store { path: path.clone(), property: property.to_owned(), entries: Vec::new() };
        match read(&path) {
            Read::Missing => (store, None),
            Read::Cases(cases) => {
                store.entries = cases;
                (store, None)
            }
            Read::Bad(why) => {
                let w = format!(
                    "{why}; it is ignored (and kept as {}.corrupt when a new failure is saved)",
                    path.display()
                );
                (store, Some(w))
            }
        }
    }

    /// Remembers `tree` (unless it is there already) and writes the file,
    /// merged with what other writers put there meanwhile. When it returns
    /// `Ok`, the case is on disk.
    pub fn add(&mut self, tree: ChoiceTree, reason: impl Into<String>) -> io::Result<()> {
        if !self.entries.iter().any(|e| e.tree == tree) {
            self.entries.push(Entry { tree, reason: reason.into() });
        }
        self.write()
    }

    /// Remembers a value written by hand: reflects it into the choices that
    /// make it with `g`. Returns `false` (and remembers nothing) when `g`
    /// cannot make `value`.
    pub fn add_value<G: Gen + ?Sized>(&mut self, g: &G, value: &G::Value) -> io::Result<bool> {
        match reflect(g, value).into_iter().next() {
            Some(tree) => self.add(tree, "a value written by hand").map(|_| true),
            None => Ok(false),
        }
    }

    /// Writes the file: under the directory's lock, merges the cases on disk
    /// with these, sets a corrupt file aside, and renames a temporary file
    /// over the old one.
    pub fn write(&mut self) -> io::Result<()> {
        let dir = self.path.parent().unwrap_or(Path::new("."));
        let _lock = DirLock::take(dir)?;
        match read(&self.path) {
            Read::Missing => {}
            Read::Cases(on_disk) => {
                let mine = std::mem::replace(&mut self.entries, on_disk);
                for e in mine {
                    if !self.entries.iter().any(|d| d.tree == e.tree) {
                        self.entries.push(e);
                    }
                }
            }
            Read::Bad(_) => {
                let aside = (0..)
                    .map(|i| {
                        with_suffix(&self.path, &if i == 0 { ".corrupt".to_owned() } else { format!(".corrupt.{i}") })
                    })
                    .find(|p| !p.exists())
                    .expect("a free name");
                fs::rename(&self.path, aside)?;
            }
        }
        let body = FileFormat { version: FORMAT_VERSION, property: self.property.clone(), cases: self.entries.clone() };
        let json = serde_json::to_string_pretty(&body).map_err(io::Error::other)?;
        write_atomically(&self.path, json.as_bytes())
    }

    /// Takes the in-flight files of this property that no living run holds:
    /// cases that ended the process that ran them. Each is removed from the
    /// directory and returned (an unreadable one is only removed).
    pub fn take_orphans(&self) -> Vec<InFlightCase> {
        let dir = self.path.parent().unwrap_or(Path::new("."));
        let prefix = format!("{}.inflight-", stem(&self.property));
        let Ok(listing) = fs::read_dir(dir) else { return Vec::new() };
        let mut names: Vec<PathBuf> = listing
            .filter_map(|e| e.ok())
            .filter(|e| e.file_name().to_string_lossy().starts_with(&prefix))
            .map(|e| e.path())
            .collect();
        names.sort();
        let mut out = Vec::new();
        for path in names {
            let Ok(f) = OpenOptions::new().read(true).write(true).open(&path) else { continue };
            // A living run holds its lock; a dead one's lock went with its process.
            if f.try_lock().is_err() {
                continue;
            }
            // A run that ended normally removes its file before it lets go of
            // the lock: a file gone by now was not an orphan.
            if !path.exists() {
                continue;
            }
            let mut text = String::new();
            if io::Read::read_to_string(&mut &f, &mut text).is_ok() {
                out.extend(InFlightCase::parse(&text));
            }
            drop(f);
            let _ = fs::remove_file(&path);
        }
        out
    }
}

/// Writes `bytes` to a temporary file beside `path` with a name no other
/// writer uses, then renames it over `path`.
fn write_atomically(path: &Path, bytes: &[u8]) -> io::Result<()> {
    let tmp = with_suffix(path, &format!(".tmp{}", unique_suffix()));
    let written = (|| {
        let mut f = File::create(&tmp)?;
        f.write_all(bytes)?;
        f.write_all(b"\n")?;
        f.sync_all()
    })();
    written.and_then(|()| fs::rename(&tmp, path)).inspect_err(|_| {
        let _ = fs::remove_file(&tmp);
    })
}
