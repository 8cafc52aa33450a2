//! The case a run is running, in mapped memory, so the next run finds a case that ended the process.

use super::{in_dir, stem, unique_suffix, Entry};
use crate::hashing::case_seed;
use refgen_core::choice::{Choice, ChoiceTree};
use serde::Deserialize;
use std::fs::{self, File, OpenOptions};
use std::io;
#[cfg(not(unix))]
use std::io::Write;
use std::path::{Path, PathBuf};

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
    pub(super) fn parse(text: &str) -> Option<InFlightCase> {
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
    /// lock goes with it): a run looking for orphans ([`super::store::Store::take_orphans`])
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
