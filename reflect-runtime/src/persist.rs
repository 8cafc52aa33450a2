//! Remembered failures: the choice trees of failing cases, kept in a regressions directory and replayed first on the next run.
//!
//! Each property has one JSON file, `<dir>/<property name>.json` (with `::`
//! written `__`), holding the choice trees (not seeds: a seed goes stale when
//! the generator changes, choices replayed leniently survive). Files are
//! written atomically (a temporary file renamed over the old one). A file
//! that is corrupt, or was written by another format version, is a warning
//! naming its path, never a crash; it is kept aside as `<file>.corrupt` when
//! a new failure is written.
//!
//! A value written by hand joins the file with [`Store::add_value`], which
//! reflects it into the choices that make it.

use reflect_core::choice::ChoiceTree;
use reflect_core::gen::Gen;
use reflect_core::interpret::reflect;
use serde::{Deserialize, Serialize};
use std::fs;
use std::io::{self, Write};
use std::path::{Path, PathBuf};

/// The format version this crate reads and writes.
pub const FORMAT_VERSION: u32 = 1;

/// One remembered case.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Entry {
    /// The choices that make the case.
    pub tree: ChoiceTree,
    /// Why it failed when it was remembered (or where it came from).
    #[serde(default)]
    pub reason: String,
}

#[derive(Debug, Serialize, Deserialize)]
struct FileFormat {
    version: u32,
    property: String,
    cases: Vec<Entry>,
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
    corrupt: bool,
}

/// The file name for `property`: `::` becomes `__`, and anything but
/// letters, digits, `_`, `-` and `.` becomes `_`.
pub fn file_name(property: &str) -> String {
    let s = property.replace("::", "__");
    let s: String = s.chars().map(|c| if c.is_ascii_alphanumeric() || "_-.".contains(c) { c } else { '_' }).collect();
    format!("{s}.json")
}

impl Store {
    /// Opens the store of `property` in `dir`. A missing file is an empty
    /// store; a file that cannot be read or understood is an empty store and
    /// a warning (the second value) naming the path.
    pub fn open(dir: &Path, property: &str) -> (Store, Option<String>) {
        let path = dir.join(file_name(property));
        let mut store =
            Store { path: path.clone(), property: property.to_owned(), entries: Vec::new(), corrupt: false };
        let text = match fs::read_to_string(&path) {
            Ok(t) => t,
            Err(e) if e.kind() == io::ErrorKind::NotFound => return (store, None),
            Err(e) => {
                store.corrupt = true;
                return (
                    store,
                    Some(format!("cannot read the regressions file {}: {e}; it is ignored", path.display())),
                );
            }
        };
        match serde_json::from_str::<FileFormat>(&text) {
            Ok(f) if f.version == FORMAT_VERSION => {
                store.entries = f.cases;
                (store, None)
            }
            Ok(f) => {
                store.corrupt = true;
                let w = format!(
                    "the regressions file {} has format version {}, but this version of reflect reads version {FORMAT_VERSION}; it is ignored (and kept as {}.corrupt when a new failure is saved)",
                    path.display(),
                    f.version,
                    path.display()
                );
                (store, Some(w))
            }
            Err(e) => {
                store.corrupt = true;
                let w = format!(
                    "the regressions file {} is corrupt ({e}); it is ignored (and kept as {}.corrupt when a new failure is saved)",
                    path.display(),
                    path.display()
                );
                (store, Some(w))
            }
        }
    }

    /// Remembers `tree` (unless it is there already) and writes the file.
    pub fn add(&mut self, tree: ChoiceTree, reason: impl Into<String>) -> io::Result<()> {
        if self.entries.iter().any(|e| e.tree == tree) {
            return Ok(());
        }
        self.entries.push(Entry { tree, reason: reason.into() });
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

    /// Writes the file atomically: a temporary file in the same directory, renamed over the old one.
    pub fn write(&mut self) -> io::Result<()> {
        let dir = self.path.parent().unwrap_or(Path::new("."));
        fs::create_dir_all(dir)?;
        if self.corrupt && self.path.exists() {
            let mut aside = self.path.clone().into_os_string();
            aside.push(".corrupt");
            fs::rename(&self.path, aside)?;
        }
        self.corrupt = false;
        let body = FileFormat { version: FORMAT_VERSION, property: self.property.clone(), cases: self.entries.clone() };
        let json = serde_json::to_string_pretty(&body).map_err(io::Error::other)?;
        let mut tmp = self.path.clone().into_os_string();
        tmp.push(format!(".tmp{}", std::process::id()));
        let tmp = PathBuf::from(tmp);
        {
            let mut f = fs::File::create(&tmp)?;
            f.write_all(json.as_bytes())?;
            f.write_all(b"\n")?;
            f.sync_all()?;
        }
        fs::rename(&tmp, &self.path).inspect_err(|_| {
            let _ = fs::remove_file(&tmp);
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use reflect_core::combinators::{int, vec};

    fn temp_dir(name: &str) -> PathBuf {
        let d = std::env::temp_dir().join(format!("reflect-persist-{name}-{}", std::process::id()));
        let _ = fs::remove_dir_all(&d);
        d
    }

    #[test]
    fn round_trips_and_writes_no_temporary_files() {
        let dir = temp_dir("round");
        let (mut s, w) = Store::open(&dir, "a::b");
        assert!(w.is_none() && s.entries.is_empty());
        let t = ChoiceTree::root(vec![ChoiceTree::choice("x", 3, vec![])]);
        s.add(t.clone(), "boom").unwrap();
        s.add(t.clone(), "boom").unwrap();
        let (s2, w) = Store::open(&dir, "a::b");
        assert!(w.is_none());
        assert_eq!(s2.entries, vec![Entry { tree: t, reason: "boom".into() }]);
        assert_eq!(s2.path, dir.join("a__b.json"));
        let names: Vec<_> = fs::read_dir(&dir).unwrap().map(|e| e.unwrap().file_name()).collect();
        assert_eq!(names.len(), 1, "{names:?}");
        fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn corrupt_and_outdated_files_are_warnings() {
        let dir = temp_dir("corrupt");
        fs::create_dir_all(&dir).unwrap();
        let path = dir.join(file_name("p"));
        fs::write(&path, "{ not json").unwrap();
        let (mut s, w) = Store::open(&dir, "p");
        let w = w.expect("a warning");
        assert!(w.contains(&path.display().to_string()) && w.contains("corrupt"), "{w}");
        assert!(s.entries.is_empty());
        s.add(ChoiceTree::root(vec![]), "x").unwrap();
        assert!(dir.join("p.json.corrupt").exists());
        fs::write(&path, r#"{"version": 99, "property": "p", "cases": []}"#).unwrap();
        let (_, w) = Store::open(&dir, "p");
        assert!(w.expect("a warning").contains("version 99"));
        fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn a_value_is_remembered_by_reflection() {
        let dir = temp_dir("value");
        let g = vec(int(0u8..=9), 0..=5);
        let (mut s, _) = Store::open(&dir, "v");
        assert!(s.add_value(&g, &vec![3, 1]).unwrap());
        assert!(!s.add_value(&g, &vec![42]).unwrap(), "42 is out of range");
        let (s, _) = Store::open(&dir, "v");
        assert_eq!(reflect_core::parse_tree(&g, &s.entries[0].tree).unwrap(), vec![3, 1]);
        fs::remove_dir_all(&dir).unwrap();
    }
}
