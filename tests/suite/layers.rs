//! The modules of src/ import downward only (docs/architecture.md): within every folder, its files
//! and subfolders, each taken as a unit, use each other in no circle; a module may use its own
//! ancestors. Read from the sources as text, as `scripts/import_layers.py` reads them: the `use`
//! lines and the paths in the code that start with `crate::`, `super::`, `self::` or a child
//! module's name, comments and strings left out.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

type Module = Vec<String>;

/// The text without comments, string and char literals; line breaks kept.
fn strip_code(text: &str) -> String {
    let b = text.as_bytes();
    let mut out = String::with_capacity(text.len());
    let mut i = 0;
    let newlines =
        |from: usize, to: usize| "\n".repeat(b[from..to].iter().filter(|&&c| c == b'\n').count());
    while i < b.len() {
        let rest = &text[i..];
        if rest.starts_with("//") {
            i += rest.find('\n').unwrap_or(rest.len());
        } else if let Some(after) = rest.strip_prefix("/*") {
            let end = after.find("*/").map_or(b.len(), |j| i + 2 + j + 2);
            out.push_str(&newlines(i, end));
            i = end;
        } else if b[i] == b'r'
            && (i == 0 || !(b[i - 1].is_ascii_alphanumeric() || b[i - 1] == b'_'))
            && rest[1..].trim_start_matches('#').starts_with('"')
        {
            let hashes = rest[1..].len() - rest[1..].trim_start_matches('#').len();
            let close = format!("\"{}", "#".repeat(hashes));
            let start = i + 2 + hashes;
            let end = text[start..]
                .find(&close)
                .map_or(b.len(), |j| start + j + close.len());
            out.push_str("\"\"");
            out.push_str(&newlines(i, end));
            i = end;
        } else if b[i] == b'"' {
            let mut j = i + 1;
            while j < b.len() && b[j] != b'"' {
                j += if b[j] == b'\\' { 2 } else { 1 };
            }
            out.push_str("\"\"");
            out.push_str(&newlines(i, j.min(b.len())));
            i = j + 1;
        } else if b[i] == b'\'' {
            // A char literal ('a', '\n', '\u{..}'), not a lifetime ('a).
            let len = char_literal_len(rest);
            if len > 0 {
                out.push_str("' '");
                i += len;
            } else {
                out.push('\'');
                i += 1;
            }
        } else {
            let c = rest.chars().next().expect("not at the end");
            out.push(c);
            i += c.len_utf8();
        }
    }
    out
}

/// The length of the char literal `text` starts with, or 0 if it starts with a lifetime.
fn char_literal_len(text: &str) -> usize {
    let mut chars = text.char_indices().skip(1);
    match chars.next() {
        Some((_, '\\')) => text[2..].find('\'').map_or(0, |j| j + 3),
        Some((_, c)) => {
            let after = 1 + c.len_utf8();
            if text[after..].starts_with('\'') {
                after + 1
            } else {
                0
            }
        }
        None => 0,
    }
}

/// The modules of the crate rooted at `root`: module path -> file.
fn modules(root: &Path) -> BTreeMap<Module, PathBuf> {
    fn visit(path: Module, file: &Path, found: &mut BTreeMap<Module, PathBuf>) {
        let text = strip_code(&std::fs::read_to_string(file).expect("source readable"));
        let dir = file.parent().expect("in a folder");
        let own = file.file_stem().and_then(|s| s.to_str()).expect("named");
        let folder = if ["mod", "lib", "main"].contains(&own) {
            dir.to_path_buf()
        } else {
            dir.join(own)
        };
        found.insert(path.clone(), file.to_path_buf());
        for line in text.lines() {
            let words: Vec<&str> = line.split_whitespace().collect();
            let at = match words.first() {
                Some(w) if w.starts_with("pub") => 1,
                _ => 0,
            };
            if words.get(at) != Some(&"mod") {
                continue;
            }
            let Some(name) = words.get(at + 1).and_then(|w| w.strip_suffix(';')) else {
                continue;
            };
            for candidate in [
                folder.join(format!("{name}.rs")),
                folder.join(name).join("mod.rs"),
            ] {
                if candidate.exists() {
                    let mut child = path.clone();
                    child.push(name.to_string());
                    visit(child, &candidate, found);
                    break;
                }
            }
        }
    }
    let mut found = BTreeMap::new();
    visit(Vec::new(), root, &mut found);
    found
}

/// The tokens of stripped code: words, `::`, braces; anything else as one char.
fn tokens(text: &str) -> Vec<&str> {
    let mut out = Vec::new();
    let b = text.as_bytes();
    let mut i = 0;
    while i < b.len() {
        let c = b[i];
        if c.is_ascii_alphanumeric() || c == b'_' {
            let start = i;
            while i < b.len() && (b[i].is_ascii_alphanumeric() || b[i] == b'_') {
                i += 1;
            }
            out.push(&text[start..i]);
        } else if text[i..].starts_with("::") {
            out.push("::");
            i += 2;
        } else if c.is_ascii() {
            if !c.is_ascii_whitespace() {
                out.push(&text[i..i + 1]);
            }
            i += 1;
        } else {
            i += text[i..].chars().next().expect("a char").len_utf8();
        }
    }
    out
}

/// The modules that module `path` (in `file`) uses.
fn uses(path: &Module, file: &Path, mods: &BTreeMap<Module, PathBuf>) -> BTreeSet<Module> {
    let text = strip_code(&std::fs::read_to_string(file).expect("source readable"));
    let tokens = tokens(&text);
    let children: BTreeSet<&str> = mods
        .keys()
        .filter(|m| m.len() == path.len() + 1 && m.starts_with(path))
        .map(|m| m[path.len()].as_str())
        .collect();
    let mut targets = BTreeSet::new();
    // Inline modules (`mod tests { ... }`): their names, and the depth at which each closes.
    let mut inline: Vec<(String, usize)> = Vec::new();
    let mut depth = 0;
    let mut i = 0;
    while i < tokens.len() {
        let t = tokens[i];
        if t == "mod" && tokens.get(i + 2) == Some(&"{") {
            depth += 1;
            inline.push((tokens[i + 1].to_string(), depth));
            i += 3;
            continue;
        }
        if t == "{" {
            depth += 1;
        } else if t == "}" {
            if inline.last().is_some_and(|&(_, d)| d == depth) {
                inline.pop();
            }
            depth -= 1;
        }
        // The start of a path: a word followed by `::`, not itself after `::`.
        let starts = tokens.get(i + 1) == Some(&"::")
            && (i == 0 || tokens[i - 1] != "::")
            && t.chars().all(|c| c.is_ascii_alphanumeric() || c == '_');
        if !starts {
            i += 1;
            continue;
        }
        let mut segs = vec![t];
        let mut j = i + 1;
        while tokens.get(j) == Some(&"::") {
            match tokens.get(j + 1) {
                Some(&w) if w.chars().all(|c| c.is_ascii_alphanumeric() || c == '_') => {
                    segs.push(w);
                    j += 2;
                }
                _ => break,
            }
        }
        i = j;
        let mut here: Module = path.clone();
        here.extend(inline.iter().map(|(n, _)| n.clone()));
        let (mut base, rest): (Module, &[&str]) = match segs[0] {
            "crate" => (Vec::new(), &segs[1..]),
            "self" => (here, &segs[1..]),
            "super" => {
                let supers = segs.iter().take_while(|&&s| s == "super").count();
                here.truncate(here.len().saturating_sub(supers));
                (here, &segs[supers..])
            }
            first if inline.is_empty() && children.contains(first) => (path.clone(), &segs[..]),
            _ => continue,
        };
        for s in rest {
            let mut next = base.clone();
            next.push(s.to_string());
            if !mods.contains_key(&next) {
                break;
            }
            base = next;
        }
        if mods.contains_key(&base) && base != *path {
            targets.insert(base);
        }
    }
    targets
}

/// The circles of `graph`: its strongly connected components of more than one node.
fn circles(graph: &BTreeMap<Module, BTreeSet<Module>>) -> Vec<Vec<Module>> {
    // Kosaraju: finish order on the graph, then components on the reversed graph.
    fn finish(
        v: &Module,
        g: &BTreeMap<Module, BTreeSet<Module>>,
        seen: &mut BTreeSet<Module>,
        out: &mut Vec<Module>,
    ) {
        if !seen.insert(v.clone()) {
            return;
        }
        for w in &g[v] {
            finish(w, g, seen, out);
        }
        out.push(v.clone());
    }
    let mut order = Vec::new();
    let mut seen = BTreeSet::new();
    for v in graph.keys() {
        finish(v, graph, &mut seen, &mut order);
    }
    let mut reversed: BTreeMap<Module, BTreeSet<Module>> =
        graph.keys().map(|k| (k.clone(), BTreeSet::new())).collect();
    for (v, ws) in graph {
        for w in ws {
            reversed.get_mut(w).expect("a node").insert(v.clone());
        }
    }
    let mut seen = BTreeSet::new();
    let mut found = Vec::new();
    for v in order.iter().rev() {
        let mut component = Vec::new();
        finish(v, &reversed, &mut seen, &mut component);
        if component.len() > 1 {
            component.sort();
            found.push(component);
        }
    }
    found
}

/// Every circle between the children of a folder of the crate rooted at `root`, as text.
fn crate_circles(root: &Path) -> (usize, Vec<String>) {
    let mods = modules(root);
    let edges: BTreeMap<Module, BTreeSet<Module>> = mods
        .iter()
        .map(|(m, f)| (m.clone(), uses(m, f, &mods)))
        .collect();
    let mut found = Vec::new();
    for parent in mods.keys() {
        let unit = |m: &Module| -> Option<Module> {
            (m.len() > parent.len() && m.starts_with(parent)).then(|| m[..=parent.len()].to_vec())
        };
        let mut graph: BTreeMap<Module, BTreeSet<Module>> = BTreeMap::new();
        for m in mods.keys() {
            if let Some(u) = unit(m) {
                graph.entry(u).or_default();
            }
        }
        for (from, targets) in &edges {
            let Some(a) = unit(from) else { continue };
            for t in targets {
                if let Some(b) = unit(t).filter(|b| *b != a) {
                    graph.get_mut(&a).expect("a unit").insert(b);
                }
            }
        }
        for circle in circles(&graph) {
            let names: Vec<String> = circle.iter().map(|m| m.join("::")).collect();
            found.push(names.join(", "));
        }
    }
    (mods.len(), found)
}

fn src() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("src")
}

#[test]
fn no_module_of_src_uses_another_in_a_circle() {
    for root in ["lib.rs", "main.rs"] {
        let (modules, circles) = crate_circles(&src().join(root));
        assert!(modules > 1, "{root}: read no modules");
        assert!(
            circles.is_empty(),
            "{root}: modules that use each other: {circles:?}"
        );
    }
}

/// The reading finds a circle where there is one: a copy of src/search with its old circle
/// (bounds used `top_sum` from the kernel, which uses bounds).
#[test]
fn a_circle_is_found() {
    let dir = tempfile::tempdir().expect("temp dir");
    let search = dir.path().join("search");
    std::fs::create_dir_all(search.join("kernel")).unwrap();
    std::fs::write(dir.path().join("lib.rs"), "pub mod search;\n").unwrap();
    std::fs::write(
        search.join("mod.rs"),
        "mod bounds;\nmod kernel;\nmod lines;\n",
    )
    .unwrap();
    std::fs::write(search.join("lines.rs"), "pub fn ones() {}\n").unwrap();
    std::fs::write(
        search.join("bounds.rs"),
        "// use super::lines::ones; (a comment: not a use)\nuse super::kernel::top_sum;\n",
    )
    .unwrap();
    std::fs::write(
        search.join("kernel").join("mod.rs"),
        "mod rules;\nuse super::bounds;\npub fn top_sum() { let _ = \"super::lines\"; }\n",
    )
    .unwrap();
    // A child using its parent is no circle.
    std::fs::write(
        search.join("kernel").join("rules.rs"),
        "use super::top_sum;\n",
    )
    .unwrap();
    let (modules, circles) = crate_circles(&dir.path().join("lib.rs"));
    assert_eq!(modules, 6);
    assert_eq!(circles, ["search::bounds, search::kernel"]);
}
