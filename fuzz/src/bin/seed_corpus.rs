//! Seeds the corpus of the fuzz target `bst_delete` by reflection: five small valid inputs written as Rust
//! values, and any `.json` files of `[tree, key]` pairs in a directory, each written as the bytes that decode
//! to it.
//!
//! ```text
//! cargo run --manifest-path fuzz/Cargo.toml --bin seed_corpus -- fuzz/corpus/bst_delete [DIR_OF_JSON_FILES]
//! ```

use refgen::fuzz::seed_corpus;
use refgen_fuzz::{node, Tree};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

/// The `[tree, key]` pairs of the `.json` files in `dir`, in file-name order.
fn from_json(dir: &Path) -> Result<Vec<(Tree, u8)>, String> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir)
        .map_err(|e| format!("cannot read {}: {e}", dir.display()))?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "json"))
        .collect();
    files.sort();
    files
        .iter()
        .map(|f| {
            let text = std::fs::read_to_string(f).map_err(|e| format!("cannot read {}: {e}", f.display()))?;
            serde_json::from_str(&text).map_err(|e| format!("{}: {e}", f.display()))
        })
        .collect()
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let Some(out) = args.first() else {
        eprintln!("usage: seed_corpus CORPUS_DIR [DIR_OF_JSON_FILES]");
        return ExitCode::FAILURE;
    };
    let mut values = vec![
        (Tree::Leaf, 0),
        (node(Tree::Leaf, 5, Tree::Leaf), 5),
        (node(node(Tree::Leaf, 1, Tree::Leaf), 4, Tree::Leaf), 1),
        (node(Tree::Leaf, 2, node(Tree::Leaf, 9, Tree::Leaf)), 9),
        (node(node(Tree::Leaf, 1, Tree::Leaf), 3, node(Tree::Leaf, 7, Tree::Leaf)), 7),
    ];
    if let Some(dir) = args.get(1) {
        match from_json(Path::new(dir)) {
            Ok(more) => values.extend(more),
            Err(e) => {
                eprintln!("seed_corpus: {e}");
                return ExitCode::FAILURE;
            }
        }
    }
    match seed_corpus(&refgen_fuzz::bst_delete::generator(), &values, Path::new(out)) {
        Ok(files) => {
            println!("wrote {} file(s) to {out}", files.len());
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("seed_corpus: {e}");
            ExitCode::FAILURE
        }
    }
}
