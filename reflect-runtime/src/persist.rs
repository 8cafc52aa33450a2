//! Remembered failures: the choice trees of failing cases, kept in a regressions directory and replayed first on the next run.
//!
//! Each property has one JSON file, `<dir>/<property name>.json` (with `::`
//! written `__`), holding the choice trees (not seeds: a seed goes stale when
//! the generator changes, choices replayed leniently survive). A tree is
//! stored flat, one `[site, choice, children]` triple per node in pre-order,
//! so a file of any depth reads back (nested JSON would meet the JSON
//! reader's recursion limit past a few dozen levels).
//!
//! Writers do not lose each other's failures: a write takes an exclusive
//! lock on `<dir>/.reflect-lock`, reads the file again, merges its cases
//! with the new one, and renames a temporary file (named by process, thread
//! and a counter) over the old one. Only then does [`Store::add`] return
//! `Ok`, so a failure reported as remembered is on disk. A file that is
//! corrupt, or was written by another format version, is a warning naming
//! its path, never a crash; it is kept aside as `<file>.corrupt` (or
//! `.corrupt.1`, `.corrupt.2`, ...: an earlier one is never overwritten) when
//! a new failure is written.
//!
//! A case that ends the process (an abort, a stack overflow, a failed
//! allocation, `std::process::exit`) cannot be caught. So before each case
//! the runner records it in an *in-flight* file
//! `<dir>/<property name>.inflight-<process>-<n>` ([`InFlight`]): the flat
//! sequence of choices it made (replayed exactly, they make it again), or,
//! for a case on the fast path of plain random generation, its run's seed
//! and its index in the run (which give its seed). The file's first page is
//! mapped into memory, so recording a case is a copy into memory, not a
//! system call; recording the next fast-path case counts its index up in
//! place (the kernel keeps a shared mapping's
//! writes however the process ends). The run holds a lock on the file while
//! it lives, and removes it when it ends. A later run that finds such a file
//! no process holds ([`Store::take_orphans`]) knows the case ended the
//! process, and reports it. It makes the case again to report it, and
//! records it in its own in-flight file first ([`InFlight::record_again`]):
//! should making it end that process too, the next run finds it again.
//!
//! The directory is made only to write to it: a run that finds it missing
//! makes it for its in-flight file, and removes it again when the run ends
//! having written nothing else there, so a run that passes leaves none.
//!
//! A value written by hand joins the file with [`Store::add_value`], which
//! reflects it into the choices that make it.

use crate::hashing::case_seed;
use reflect_core::choice::{Choice, ChoiceTree};
use reflect_core::gen::Gen;
use reflect_core::interpret::reflect;
use serde::{Deserialize, Serialize};
use std::fs::{self, File, OpenOptions};
use std::io::{self, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};

/// The format version this crate writes (it reads version 1 too).
pub const FORMAT_VERSION: u32 = 2;

/// The name of the lock file in a regressions directory.
const LOCK: &str = ".reflect-lock";

/// One remembered case.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Entry {
    /// The choices that make the case.
    #[serde(with = "flat")]
    pub tree: ChoiceTree,
    /// Why it failed when it was remembered (or where it came from).
    #[serde(default)]
    pub reason: String,
}

/// A choice tree as a flat pre-order list of `(site, choice, number of children)`.
mod flat {
    use super::*;
    use serde::{Deserializer, Serializer};

    type Node = (String, Option<Choice>, usize);

    pub(super) fn serialize<S: Serializer>(tree: &ChoiceTree, s: S) -> Result<S::Ok, S::Error> {
        let mut nodes: Vec<Node> = Vec::new();
        let mut stack = vec![tree];
        while let Some(t) = stack.pop() {
            nodes.push((t.site.to_string(), t.choice, t.children.len()));
            stack.extend(t.children.iter().rev());
        }
        nodes.serialize(s)
    }

    pub(super) fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<ChoiceTree, D::Error> {
        let nodes = Vec::<Node>::deserialize(d)?;
        unflatten(nodes).map_err(serde::de::Error::custom)
    }

    /// Rebuilds the tree without recursion: each open node waits for its children.
    fn unflatten(nodes: Vec<Node>) -> Result<ChoiceTree, String> {
        let mut open: Vec<(ChoiceTree, usize)> = Vec::new();
        let mut nodes = nodes.into_iter();
        loop {
            let Some((site, choice, n)) = nodes.next() else {
                return Err("the choice tree ends early".into());
            };
            let mut done = ChoiceTree { site: site.into(), choice, children: Vec::with_capacity(n.min(1024)) };
            if n > 0 {
                open.push((done, n));
                continue;
            }
            // Close every node whose last child this was.
            loop {
                match open.last_mut() {
                    None => {
                        return match nodes.next() {
                            None => Ok(done),
                            Some(_) => Err("nodes follow the end of the choice tree".into()),
                        }
                    }
                    Some((parent, left)) => {
                        parent.children.push(done);
                        *left -= 1;
                        if *left > 0 {
                            break;
                        }
                        done = open.pop().expect("an open node").0;
                    }
                }
            }
        }
    }
}

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

/// A case a run left in flight: how to make it again.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum InFlightCase {
    /// Its choice tree (the record of an earlier version of this library).
    Tree(ChoiceTree),
    /// The choices it made, in order: replayed as a sequence, they make it again.
    Choices(Vec<Choice>),
    /// The seed of a case generated on the fast path (plain random
    /// generation, whose choices are not recorded unless the case fails):
    /// the generator run on an RNG seeded with it makes the case again.
    Seed(u64),
    /// A generated case a guide was making (its choices were not made yet):
    /// its index in its run, and the seed of its RNG. A guide's case cannot
    /// be made again outside its run (the guide's state made it), so it is
    /// reported, not made again.
    Guided {
        /// The case's index in its run.
        index: u64,
        /// The seed of the case's RNG.
        seed: u64,
    },
}

impl InFlightCase {
    /// The case an in-flight file's text records, in any of its formats;
    /// `None` when it is unreadable.
    fn parse(text: &str) -> Option<InFlightCase> {
        // A guided record before a seed's: it has a seed too (unknown fields are ignored).
        if let Ok(r) = serde_json::from_str::<ChoicesRecord>(text) {
            Some(InFlightCase::Choices(r.choices))
        } else if let Ok(r) = serde_json::from_str::<GuidedRecord>(text) {
            Some(InFlightCase::Guided { index: r.guided, seed: r.seed })
        } else if let Ok(r) = serde_json::from_str::<SeedRecord>(text) {
            Some(InFlightCase::Seed(r.seed))
        } else if let Ok(r) = serde_json::from_str::<CaseRecord>(text) {
            Some(InFlightCase::Seed(case_seed(r.run, r.case)))
        } else {
            serde_json::from_str::<Entry>(text).ok().map(|e| InFlightCase::Tree(e.tree))
        }
    }
}

/// The in-flight record of a fast-path case by its seed (as earlier versions wrote it, and
/// [`InFlight::record_again`] writes it again).
#[derive(Deserialize)]
struct SeedRecord {
    seed: u64,
}

/// Adds one to the decimal number `digits`, in place; `false`, with
/// `digits` unchanged, when the sum needs one more digit.
#[inline]
fn count_up(digits: &mut [u8]) -> bool {
    for d in digits.iter_mut().rev() {
        if *d != b'9' {
            *d += 1;
            return true;
        }
        *d = b'0';
    }
    // All nines: put them back.
    digits.fill(b'9');
    false
}

/// The in-flight record of a generated case on the fast path: its run's seed and its index in the run.
#[derive(Deserialize)]
struct CaseRecord {
    run: u64,
    case: u64,
}

/// The in-flight record of a generated case a guide is making: its index and its RNG's seed.
#[derive(Deserialize)]
struct GuidedRecord {
    guided: u64,
    seed: u64,
}

/// The in-flight record of any other case: the choices it made.
#[derive(Deserialize)]
struct ChoicesRecord {
    choices: Vec<Choice>,
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

/// The file name for `property`: `::` becomes `__`, and anything but
/// letters, digits, `_`, `-` and `.` becomes `_`.
pub fn file_name(property: &str) -> String {
    format!("{}.json", stem(property))
}

fn stem(property: &str) -> String {
    let s = property.replace("::", "__");
    s.chars().map(|c| if c.is_ascii_alphanumeric() || "_-.".contains(c) { c } else { '_' }).collect()
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

/// A name no other writer uses: process, thread and a counter.
fn unique_suffix() -> String {
    static COUNTER: AtomicU64 = AtomicU64::new(0);
    let thread = format!("{:?}", std::thread::current().id());
    let thread: String = thread.chars().filter(char::is_ascii_digit).collect();
    format!("{}-{thread}-{}", std::process::id(), COUNTER.fetch_add(1, Ordering::Relaxed))
}

/// `path` with `suffix` added to its file name.
fn with_suffix(path: &Path, suffix: &str) -> PathBuf {
    let mut p = path.as_os_str().to_owned();
    p.push(suffix);
    PathBuf::from(p)
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

/// Makes a file in `dir` with `make`, creating `dir` first when it is
/// missing; tried again should `dir` vanish in between (a run that created
/// it removes it when it ends empty, see [`InFlight`]).
fn in_dir<T>(dir: &Path, make: impl Fn() -> io::Result<T>) -> io::Result<T> {
    let mut tries = 0;
    loop {
        fs::create_dir_all(dir)?;
        match make() {
            Err(e) if e.kind() == io::ErrorKind::NotFound && tries < 8 => tries += 1,
            made => return made,
        }
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

/// The case a run is running, on disk, so that a case that ends the process
/// is found by the next run (see the module docs). Removed when dropped.
#[derive(Debug)]
pub struct InFlight {
    path: PathBuf,
    file: File,
    /// The length of the last record.
    len: u64,
    /// The file's length.
    size: u64,
    /// Once a record fits in it, the file's first [`SLOT`] bytes mapped
    /// into memory, so a record is a copy into memory, not a system call.
    slot: Option<memmap2::MmapMut>,
    /// The bytes of the record being made (kept, so a record allocates nothing).
    buf: Vec<u8>,
    /// When the mapped record is a generated case's ([`InFlight::record_case`]):
    /// which, and where its index's digits are.
    case_at: Option<CaseAt>,
    /// Whether the regressions directory was missing, and made for this
    /// file: it is removed with the file when nothing else was written there.
    created_dir: bool,
}

/// The generated case the mapped record is of, and where its index's digits are.
#[derive(Debug, Clone, Copy)]
struct CaseAt {
    run: u64,
    index: u64,
    digits: (usize, usize),
}

/// How many bytes of the in-flight file are mapped into memory: a record
/// this long or shorter is copied there; a longer one is written.
const SLOT: usize = 4096;

impl InFlight {
    /// Creates (and locks) the in-flight file of a run of `property` in `dir`.
    /// The file is made and locked under another name, then renamed (the
    /// lock goes with it): a run looking for orphans ([`Store::take_orphans`])
    /// never sees an in-flight file that is not locked yet, which it would
    /// take for the file of a run that ended the process.
    pub fn create(dir: &Path, property: &str) -> io::Result<InFlight> {
        let created_dir = !dir.exists();
        let suffix = unique_suffix();
        let path = dir.join(format!("{}.inflight-{suffix}", stem(property)));
        let starting = dir.join(format!("{}.starting-{suffix}", stem(property)));
        let file = in_dir(dir, || OpenOptions::new().create_new(true).read(true).write(true).open(&starting))?;
        let locked = file.lock().and_then(|()| fs::rename(&starting, &path));
        if let Err(e) = locked {
            let _ = fs::remove_file(&starting);
            return Err(e);
        }
        Ok(InFlight { path, file, len: 0, size: 0, slot: None, buf: Vec::new(), case_at: None, created_dir })
    }

    /// The file's path.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Records the case about to run by its choices (see
    /// [`InFlightCase::Choices`]).
    pub fn record(&mut self, tree: &ChoiceTree) -> io::Result<()> {
        self.record_choices(tree.choices())
    }

    /// Records the case about to run by the choices it made, in order (see
    /// [`InFlightCase::Choices`]).
    pub fn record_choices(&mut self, choices: impl IntoIterator<Item = Choice>) -> io::Result<()> {
        let mut buf = std::mem::take(&mut self.buf);
        buf.clear();
        buf.extend_from_slice(b"{\"choices\":[");
        let mut digits = itoa::Buffer::new();
        for (i, c) in choices.into_iter().enumerate() {
            if i > 0 {
                buf.push(b',');
            }
            buf.extend_from_slice(digits.format(c).as_bytes());
        }
        buf.extend_from_slice(b"]}");
        let written = self.put(&buf);
        self.buf = buf;
        written
    }

    /// Records `case`, a case another run left in flight, as the case about
    /// to be made: should making it end this process too, the next run
    /// finds it again.
    pub fn record_again(&mut self, case: &InFlightCase) -> io::Result<()> {
        match case {
            InFlightCase::Tree(tree) => self.record(tree),
            InFlightCase::Choices(choices) => self.record_choices(choices.iter().copied()),
            InFlightCase::Seed(seed) => {
                let mut digits = itoa::Buffer::new();
                self.put_parts(&[b"{\"seed\":", digits.format(*seed).as_bytes(), b"}"])
            }
            &InFlightCase::Guided { index, seed } => self.record_guided(index, seed),
        }
    }

    /// Records that a guide is making generated case `index`, its RNG
    /// seeded with `seed` (see [`InFlightCase::Guided`]): should its
    /// generator end the process, that case is reported, not the one before.
    /// Once made, the case is recorded by its choices.
    pub fn record_guided(&mut self, index: u64, seed: u64) -> io::Result<()> {
        let (mut index_digits, mut seed_digits) = (itoa::Buffer::new(), itoa::Buffer::new());
        let (index, seed) = (index_digits.format(index).as_bytes(), seed_digits.format(seed).as_bytes());
        self.put_parts(&[b"{\"guided\":", index, b",\"seed\":", seed, b"}"])
    }

    /// Records the fast-path case about to run by its run's seed and its
    /// index in the run (its seed is [`case_seed`]`(run, index)`, see
    /// [`InFlightCase::Seed`]). When the record in memory is of the case
    /// before it in the same run, its index is counted up in place: a byte
    /// or two per case.
    #[inline]
    pub fn record_case(&mut self, run: u64, index: u64) -> io::Result<()> {
        if let (Some(slot), Some(at)) = (self.slot.as_mut(), self.case_at.as_mut()) {
            if at.run == run && Some(index) == at.index.checked_add(1) && count_up(&mut slot[at.digits.0..at.digits.1])
            {
                at.index = index;
                return Ok(());
            }
        }
        self.record_case_anew(run, index)
    }

    /// [`InFlight::record_case`], the whole record written.
    fn record_case_anew(&mut self, run: u64, index: u64) -> io::Result<()> {
        let (mut run_digits, mut index_digits) = (itoa::Buffer::new(), itoa::Buffer::new());
        let (run_text, index_text) = (run_digits.format(run).as_bytes(), index_digits.format(index).as_bytes());
        let start = b"{\"run\":".len() + run_text.len() + b",\"case\":".len();
        self.put_parts(&[b"{\"run\":", run_text, b",\"case\":", index_text, b"}"])?;
        let digits = (start, start + index_text.len());
        self.case_at = self.slot.is_some().then_some(CaseAt { run, index, digits });
        Ok(())
    }

    /// Puts the record made of `parts` (a short one, made without allocating).
    fn put_parts(&mut self, parts: &[&[u8]]) -> io::Result<()> {
        let mut buf = [0u8; 64];
        let mut at = 0;
        for part in parts {
            buf[at..at + part.len()].copy_from_slice(part);
            at += part.len();
        }
        self.put(&buf[..at])
    }

    /// Puts `record` in the file in place of the last one. The first record
    /// that fits in [`SLOT`] bytes makes the file that long (padded with
    /// spaces, which JSON allows after a value) and maps it into memory;
    /// records after it that fit are copied into that memory, and the rest of
    /// the last record is blanked. The kernel keeps a shared mapping's writes
    /// when the process ends, however it ends, so the next run reads the last
    /// record as if it had been written. A longer record is written to the file.
    fn put(&mut self, record: &[u8]) -> io::Result<()> {
        self.case_at = None;
        if record.len() > SLOT {
            return self.write_record(record);
        }
        if self.slot.is_none() {
            let mut padded = vec![b' '; SLOT];
            padded[..record.len()].copy_from_slice(record);
            self.write_record(&padded)?;
            // SAFETY: a mapping is undefined behaviour only if the file under it
            // is changed or shortened by something other than the mapping while
            // it lives. Nothing does: (1) in this process only this `InFlight`
            // writes its file, and it drops the mapping before any other write
            // or change of length (`write_record`, `drop`); (2) another run opens
            // an in-flight file only in `Store::take_orphans`, and reads or
            // removes it only once it holds the file's lock, which this
            // `InFlight` took in `create`, before the file had its name, and
            // holds until it is dropped, after the mapping (the thread watching
            // a run that hung removes the file's name, which changes neither its
            // bytes nor its length); (3) the file is
            // private to this run by name (process and counter), and only the
            // library writes the regressions directory's in-flight files. The
            // mapping is exactly the `SLOT` bytes just written, so it never
            // reaches past the file's end.
            #[allow(unsafe_code)]
            let slot = unsafe { memmap2::MmapOptions::new().len(SLOT).map_mut(&self.file) };
            // Without a mapping, each record is written to the file instead.
            self.slot = slot.ok();
            self.len = record.len() as u64;
            return Ok(());
        }
        let last = self.len as usize;
        if let Some(slot) = self.slot.as_mut() {
            slot[..record.len()].copy_from_slice(record);
            if last > record.len() {
                slot[record.len()..last].fill(b' ');
            }
        }
        self.len = record.len() as u64;
        Ok(())
    }

    /// Writes `bytes` over the file, shortening it only when the last write
    /// was longer: one system call (on Unix) when it was not.
    fn write_record(&mut self, bytes: &[u8]) -> io::Result<()> {
        // The file is about to change under the mapping: let it go first.
        self.slot = None;
        let len = bytes.len() as u64;
        if len < self.size {
            self.file.set_len(0)?;
        }
        #[cfg(unix)]
        std::os::unix::fs::FileExt::write_all_at(&self.file, bytes, 0)?;
        #[cfg(not(unix))]
        {
            io::Seek::rewind(&mut self.file)?;
            self.file.write_all(bytes)?;
        }
        (self.len, self.size) = (len, len);
        Ok(())
    }
}

impl Drop for InFlight {
    fn drop(&mut self) {
        self.slot = None;
        let _ = fs::remove_file(&self.path);
        if self.created_dir {
            // Only an empty directory is removed: a failure remembered (or another run's file) keeps it.
            if let Some(dir) = self.path.parent() {
                let _ = fs::remove_dir(dir);
            }
        }
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
    fn a_run_starting_or_ending_is_never_taken_for_an_orphan() {
        // One thread starts and ends runs (an in-flight file each) while another looks for orphans:
        // an in-flight file must be locked from the moment its name appears until it is gone.
        let dir = temp_dir("inflight-race");
        fs::create_dir_all(&dir).unwrap();
        let stop = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
        let runs = {
            let (dir, stop) = (dir.clone(), stop.clone());
            std::thread::spawn(move || {
                let t = ChoiceTree::root(vec![ChoiceTree::choice("x", 3, vec![])]);
                for _ in 0..3000 {
                    let mut f = InFlight::create(&dir, "race").unwrap();
                    f.record(&t).unwrap();
                }
                stop.store(true, std::sync::atomic::Ordering::SeqCst);
            })
        };
        let (store, _) = Store::open(&dir, "race");
        let mut taken = 0;
        while !stop.load(std::sync::atomic::Ordering::SeqCst) {
            taken += store.take_orphans().len();
        }
        runs.join().unwrap();
        assert_eq!(taken, 0, "living runs were taken for orphans");
        fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn the_in_flight_file_holds_the_last_record_whichever_way_it_was_written() {
        // Records that fit are copied into a mapping of the file, longer ones are written to it: a
        // reader (the next run, after this process ended) must find exactly the last record each time.
        let dir = temp_dir("inflight-last");
        let mut f = InFlight::create(&dir, "last").unwrap();
        let read = |f: &InFlight| InFlightCase::parse(&fs::read_to_string(&f.path).unwrap()).unwrap();
        let t = ChoiceTree::root(vec![ChoiceTree::choice("x", 3, vec![ChoiceTree::choice("y", 7, vec![])])]);
        // Longer than the mapped slot: written, and the mapping made again after it.
        let long: Vec<Choice> = (0..1000).map(|i| u64::MAX - i).collect();
        for round in 0..3u64 {
            for (run, index) in [(u64::MAX, u64::MAX), (5, 0), (12_345_678_901 + round, 3)] {
                f.record_case(run, index).unwrap();
                assert_eq!(read(&f), InFlightCase::Seed(case_seed(run, index)));
            }
            // A run's generated cases: counted up in place, across one more digit, after a gap,
            // back to fewer digits, for another run.
            let run = 0xdead_beef_u64 << round;
            for (r, index) in (0..12).chain(97..=101).chain([1_000, 7, 8]).map(|i| (run, i)).chain([(run + 1, 9)]) {
                f.record_case(r, index).unwrap();
                assert_eq!(read(&f), InFlightCase::Seed(case_seed(r, index)), "case {index} of run {r}");
            }
            f.record(&t).unwrap();
            assert_eq!(read(&f), InFlightCase::Choices(vec![3, 7]));
            f.record_choices(long.iter().copied().skip(round as usize * 500)).unwrap();
            assert_eq!(read(&f), InFlightCase::Choices(long[round as usize * 500..].to_vec()));
            f.record_choices([1, 2]).unwrap();
            assert_eq!(read(&f), InFlightCase::Choices(vec![1, 2]));
            f.record_guided(round, u64::MAX - round).unwrap();
            assert_eq!(read(&f), InFlightCase::Guided { index: round, seed: u64::MAX - round });
        }
        let path = f.path.clone();
        drop(f);
        assert!(!path.exists());
        // A case another run left, recorded again as it was (a seed alone, as earlier versions wrote).
        let mut f = InFlight::create(&dir, "again").unwrap();
        let guided = InFlightCase::Guided { index: 7, seed: 9 };
        for case in [InFlightCase::Seed(42), InFlightCase::Choices(vec![1, 2, 3]), guided, InFlightCase::Seed(u64::MAX)]
        {
            f.record_again(&case).unwrap();
            assert_eq!(read(&f), case);
        }
        drop(f);
        fs::remove_dir_all(&dir).unwrap();
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
        let names: Vec<_> = fs::read_dir(&dir).unwrap().map(|e| e.unwrap().file_name()).filter(|n| n != LOCK).collect();
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
        // A second corrupt file is kept beside the first, not over it.
        fs::write(&path, "{ also not json").unwrap();
        s.add(ChoiceTree::root(vec![]), "x").unwrap();
        assert_eq!(fs::read_to_string(dir.join("p.json.corrupt")).unwrap(), "{ not json");
        assert_eq!(fs::read_to_string(dir.join("p.json.corrupt.1")).unwrap(), "{ also not json");
        fs::write(&path, r#"{"version": 99, "property": "p", "cases": []}"#).unwrap();
        let (_, w) = Store::open(&dir, "p");
        assert!(w.expect("a warning").contains("version 99"));
        fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn a_deep_tree_reads_back() {
        let dir = temp_dir("deep");
        let mut t = ChoiceTree::choice("leaf", 0, vec![]);
        for i in 0..500 {
            t = ChoiceTree::choice(
                "node",
                i % 3,
                vec![ChoiceTree::group("left", vec![t]), ChoiceTree::choice("x", i, vec![])],
            );
        }
        let t = ChoiceTree::root(vec![t, ChoiceTree::group("empty", vec![])]);
        let (mut s, _) = Store::open(&dir, "deep");
        s.add(t.clone(), "deep").unwrap();
        let (s, w) = Store::open(&dir, "deep");
        assert!(w.is_none(), "{w:?}");
        assert_eq!(s.entries[0].tree, t);
        fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn a_version_one_file_is_read() {
        let dir = temp_dir("v1");
        fs::create_dir_all(&dir).unwrap();
        let v1 = r#"{"version": 1, "property": "p", "cases": [{"tree": {"site": "<root>", "children": [{"site": "x", "choice": 3}]}, "reason": "r"}]}"#;
        fs::write(dir.join("p.json"), v1).unwrap();
        let (s, w) = Store::open(&dir, "p");
        assert!(w.is_none(), "{w:?}");
        assert_eq!(s.entries[0].tree, ChoiceTree::root(vec![ChoiceTree::choice("x", 3, vec![])]));
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
