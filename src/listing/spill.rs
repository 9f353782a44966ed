//! An external sort of fixed-width records (rows of `u16`): records are held in a buffer of a
//! fixed size; a full buffer is sorted and written to an anonymous temporary file (a run); at the
//! end the runs and the last buffer are merged, k at a time, into one sorted stream. Memory is the
//! buffer and one read buffer per run merged, whatever the number of records.
//!
//! The runs are anonymous files (`tempfile::tempfile_in`: unlinked as soon as they are made), so
//! the system removes them when they are closed, on success, on error, on Ctrl-C and on a kill.

use std::cmp::Reverse;
use std::collections::BinaryHeap;
use std::fs::File;
use std::io::{self, BufReader, BufWriter, Read, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};

use super::ListingError;

/// At most this many runs are read at once; more are merged into fewer first. Each takes one
/// file descriptor and one read buffer.
const MERGE_WAYS: usize = 64;
/// The read and write buffer of one run.
const RUN_BUFFER: usize = 64 * 1024;

/// A sorted stream of records, in memory or on disk.
pub(crate) struct SpillSorter {
    dir: PathBuf,
    /// Values per record (0 until the first record).
    width: usize,
    /// Records kept in memory before they are spilled.
    capacity: usize,
    buffer: Vec<u16>,
    runs: Vec<Run>,
}

/// A sorted run on disk: its file and how many records it holds.
struct Run {
    file: File,
    records: u64,
}

impl SpillSorter {
    /// A sorter that keeps at most `buffer_bytes` of records in memory (at least one record)
    /// and writes its runs in `dir`.
    pub fn new(dir: &Path, buffer_bytes: usize) -> SpillSorter {
        SpillSorter {
            dir: dir.to_path_buf(),
            width: 0,
            capacity: buffer_bytes,
            buffer: Vec::new(),
            runs: Vec::new(),
        }
    }

    /// Runs written to disk so far.
    #[cfg(test)]
    pub fn runs(&self) -> usize {
        self.runs.len()
    }

    /// Add one record. Every record has the width of the first.
    pub fn push(&mut self, record: &[u16]) -> Result<(), ListingError> {
        if self.width == 0 {
            assert!(!record.is_empty(), "records are not empty");
            self.width = record.len();
            // Bytes to records: two per value and four for the sort's index of the record.
            self.capacity = (self.capacity / (2 * self.width + 4)).max(1);
            // Once, exactly: a growing buffer would hold its old and new copies at once.
            self.buffer.reserve_exact(self.capacity * self.width);
        }
        assert_eq!(record.len(), self.width, "records have one width");
        self.buffer.extend_from_slice(record);
        if self.buffer.len() / self.width >= self.capacity {
            let run = self.write_run()?;
            self.runs.push(run);
        }
        Ok(())
    }

    /// The order of the buffer's records, increasing (by their index in the buffer).
    fn buffer_order(&self) -> Vec<u32> {
        let (width, buffer) = (self.width, &self.buffer);
        let mut order: Vec<u32> = (0..(buffer.len() / width.max(1)) as u32).collect();
        let record = |i: u32| &buffer[i as usize * width..(i as usize + 1) * width];
        order.sort_unstable_by(|&a, &b| record(a).cmp(record(b)));
        order
    }

    fn new_run(&self) -> Result<File, ListingError> {
        tempfile::tempfile_in(&self.dir).map_err(|source| ListingError::Spill {
            dir: self.dir.clone(),
            source,
        })
    }

    fn spill_error(&self, source: io::Error) -> ListingError {
        ListingError::Spill {
            dir: self.dir.clone(),
            source,
        }
    }

    /// Sort the buffer and write it as a run (the buffer is left empty, its memory kept).
    fn write_run(&mut self) -> Result<Run, ListingError> {
        let order = self.buffer_order();
        let mut file = self.new_run()?;
        let mut out = BufWriter::with_capacity(RUN_BUFFER, &mut file);
        let width = self.width;
        let written = order.iter().try_for_each(|&i| {
            let record = &self.buffer[i as usize * width..(i as usize + 1) * width];
            record
                .iter()
                .try_for_each(|v| out.write_all(&v.to_le_bytes()))
        });
        written
            .and_then(|()| out.flush())
            .map_err(|e| self.spill_error(e))?;
        drop(out);
        self.buffer.clear();
        Ok(Run {
            file,
            records: order.len() as u64,
        })
    }

    /// Every record pushed, in increasing order (duplicates kept).
    pub fn into_sorted(mut self) -> Result<Sorted, ListingError> {
        while self.runs.len() > MERGE_WAYS {
            // Merge the first runs into one, so that the last merge reads at most MERGE_WAYS.
            let rest = self.runs.split_off(MERGE_WAYS);
            let first = std::mem::replace(&mut self.runs, rest);
            let mut merged = Sorted::of_runs(first, None, self.width, &self.dir)?;
            let mut file = self.new_run()?;
            let mut out = BufWriter::with_capacity(RUN_BUFFER, &mut file);
            let mut records = 0u64;
            while let Some(record) = merged.next_record()? {
                for v in record {
                    out.write_all(&v.to_le_bytes())
                        .map_err(|e| self.spill_error(e))?;
                }
                records += 1;
            }
            out.flush().map_err(|e| self.spill_error(e))?;
            drop(out);
            self.runs.push(Run { file, records });
        }
        // The last records are merged from the buffer itself, in sorted order.
        let order = self.buffer_order();
        let values = std::mem::take(&mut self.buffer);
        let runs = std::mem::take(&mut self.runs);
        let memory = Source::Memory {
            values,
            order,
            at: 0,
        };
        Sorted::of_runs(runs, Some(memory), self.width, &self.dir)
    }
}

/// One input of the merge.
enum Source {
    Disk {
        reader: BufReader<File>,
        left: u64,
    },
    /// The buffer's records, and their order.
    Memory {
        values: Vec<u16>,
        order: Vec<u32>,
        at: usize,
    },
}

impl Source {
    fn next(&mut self, width: usize, dir: &Path) -> Result<Option<Vec<u16>>, ListingError> {
        match self {
            Source::Disk { reader, left } => {
                if *left == 0 {
                    return Ok(None);
                }
                let mut bytes = vec![0u8; 2 * width];
                reader
                    .read_exact(&mut bytes)
                    .map_err(|source| ListingError::Spill {
                        dir: dir.to_path_buf(),
                        source,
                    })?;
                *left -= 1;
                Ok(Some(
                    bytes
                        .chunks_exact(2)
                        .map(|b| u16::from_le_bytes([b[0], b[1]]))
                        .collect(),
                ))
            }
            Source::Memory { values, order, at } => {
                let Some(&i) = order.get(*at) else {
                    return Ok(None);
                };
                *at += 1;
                let i = i as usize;
                Ok(Some(values[i * width..(i + 1) * width].to_vec()))
            }
        }
    }
}

/// The merged stream: records in increasing order.
pub(crate) struct Sorted {
    width: usize,
    dir: PathBuf,
    sources: Vec<Source>,
    /// The next record of each source that has one, smallest first.
    heads: BinaryHeap<Reverse<(Vec<u16>, usize)>>,
}

impl Sorted {
    fn of_runs(
        runs: Vec<Run>,
        memory: Option<Source>,
        width: usize,
        dir: &Path,
    ) -> Result<Sorted, ListingError> {
        let mut sources = Vec::with_capacity(runs.len() + 1);
        for mut run in runs {
            run.file
                .seek(SeekFrom::Start(0))
                .map_err(|source| ListingError::Spill {
                    dir: dir.to_path_buf(),
                    source,
                })?;
            sources.push(Source::Disk {
                reader: BufReader::with_capacity(RUN_BUFFER, run.file),
                left: run.records,
            });
        }
        sources.extend(memory);
        let mut heads = BinaryHeap::with_capacity(sources.len());
        for (i, source) in sources.iter_mut().enumerate() {
            if let Some(record) = source.next(width, dir)? {
                heads.push(Reverse((record, i)));
            }
        }
        Ok(Sorted {
            width,
            dir: dir.to_path_buf(),
            sources,
            heads,
        })
    }

    /// The next record, or `None` at the end.
    pub fn next_record(&mut self) -> Result<Option<Vec<u16>>, ListingError> {
        let Some(Reverse((record, i))) = self.heads.pop() else {
            return Ok(None);
        };
        if let Some(next) = self.sources[i].next(self.width, &self.dir)? {
            self.heads.push(Reverse((next, i)));
        }
        Ok(Some(record))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Records from a fixed pseudo-random sequence, duplicates included.
    fn records(n: usize, width: usize) -> Vec<Vec<u16>> {
        let mut x: u64 = 0x9e37_79b9_7f4a_7c15;
        (0..n)
            .map(|_| {
                (0..width)
                    .map(|_| {
                        x ^= x << 13;
                        x ^= x >> 7;
                        x ^= x << 17;
                        (x % 40) as u16
                    })
                    .collect()
            })
            .collect()
    }

    fn sort_through(sorter: &mut SpillSorter, input: &[Vec<u16>]) {
        for r in input {
            sorter.push(r).unwrap();
        }
    }

    fn drain(sorted: &mut Sorted) -> Vec<Vec<u16>> {
        let mut out = Vec::new();
        while let Some(r) = sorted.next_record().unwrap() {
            out.push(r);
        }
        out
    }

    #[test]
    fn tiny_buffers_spill_and_merge_to_the_sorted_records() {
        let dir = tempfile::tempdir().unwrap();
        for (n, buffer_bytes) in [(0, 1), (1, 1), (5, 1), (1000, 1), (1000, 30), (5000, 200)] {
            let input = records(n, 3);
            let mut sorter = SpillSorter::new(dir.path(), buffer_bytes);
            sort_through(&mut sorter, &input);
            if buffer_bytes == 1 {
                // One record per run: more runs than one merge reads, so merged in passes.
                assert_eq!(sorter.runs(), n);
            }
            let mut expected = input.clone();
            expected.sort();
            assert_eq!(drain(&mut sorter.into_sorted().unwrap()), expected);
        }
        // The runs are anonymous: nothing is left in the directory.
        assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 0);
    }

    #[test]
    fn a_large_buffer_sorts_in_memory() {
        let dir = tempfile::tempdir().unwrap();
        let input = records(2000, 2);
        let mut sorter = SpillSorter::new(dir.path(), 1 << 20);
        sort_through(&mut sorter, &input);
        assert_eq!(sorter.runs(), 0);
        let mut expected = input;
        expected.sort();
        assert_eq!(drain(&mut sorter.into_sorted().unwrap()), expected);
    }

    #[test]
    fn a_missing_directory_is_named() {
        let missing = Path::new("/nonexistent/queendom-spill");
        let mut sorter = SpillSorter::new(missing, 1);
        let err = sorter.push(&[1, 2]).unwrap_err();
        assert!(
            err.to_string().contains("/nonexistent/queendom-spill"),
            "{err}"
        );
    }
}
