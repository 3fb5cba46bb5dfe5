//! User text that reaches Markdown (a board's name, a file name) never
//! becomes a link GitHub makes by itself: a mention `@octocat` would
//! notify that user when a diff is posted as a comment or a job summary,
//! `#1` would link (and cross-reference) an issue.

use crate::support::run_in;

/// A name holding every kind of text GitHub links by itself.
const HOSTILE: &str = "@octocat and @org/team, #1, GH-2, mail a@b.io, www.e.com, http://e.com";

/// The texts of `md` GitHub would turn into a mention, a reference or a
/// link: `@` or `#` before a letter or digit, `GH-` before a digit, `://`
/// or `www.`, read as GitHub reads them (the word joiner reference as the
/// character it stands for).
fn autolinks(md: &str) -> Vec<String> {
    let read = md.replace("&#8288;", "\u{2060}");
    let chars: Vec<char> = read.chars().collect();
    let mut found = Vec::new();
    for (i, &c) in chars.iter().enumerate() {
        let rest: String = chars[i..chars.len().min(i + 12)].iter().collect();
        let next = chars.get(i + 1).copied().unwrap_or(' ');
        let linked = match c {
            '@' | '#' => next.is_alphanumeric(),
            ':' => rest.starts_with("://"),
            _ => {
                rest.to_ascii_lowercase().starts_with("www.")
                    || (rest.starts_with("GH-")
                        && rest[3..].starts_with(|d: char| d.is_ascii_digit()))
            }
        };
        if linked {
            found.push(rest);
        }
    }
    found
}

#[track_caller]
fn no_autolinks(what: &str, md: &str) {
    let found = autolinks(md);
    assert!(found.is_empty(), "{what} links {found:?}:\n{md}");
}

#[test]
fn the_checker_finds_what_github_links() {
    assert_eq!(autolinks(HOSTILE).len(), 7, "{:?}", autolinks(HOSTILE));
    assert!(autolinks("## Heading, 50 # squares, a @ b").is_empty());
}

/// `diff --format markdown` and `report` in Markdown (standard output and
/// a file) on boards named and stored hostilely: the name is shown, every
/// character of it, and nothing in it links.
#[test]
fn markdown_outputs_link_nothing_of_a_name() {
    let dir = tempfile::tempdir().unwrap();
    let name = serde_json::to_string(HOSTILE).unwrap();
    std::fs::write(
        dir.path().join("@octocat #3.json"),
        format!(r#"{{"name": {name}, "squares": 20, "ladders": [[2, 9]]}}"#),
    )
    .unwrap();
    std::fs::write(
        dir.path().join("new.json"),
        format!(r#"{{"name": {name}, "squares": 20, "ladders": [[3, 9]]}}"#),
    )
    .unwrap();
    let diff = run_in(
        dir.path(),
        &[
            "diff",
            "--format",
            "markdown",
            "@octocat #3.json",
            "new.json",
        ],
    );
    assert_eq!(diff.status.code(), Some(0), "{diff:?}");
    let diff = String::from_utf8(diff.stdout).unwrap();
    no_autolinks("diff --format markdown", &diff);
    // Shown as it is, less the invisible joiners and the escapes.
    let heading = diff
        .lines()
        .next()
        .unwrap()
        .replace("&#8288;", "")
        .replace('\\', "");
    assert!(heading.contains(HOSTILE), "{heading}");
    assert!(heading.contains("@octocat #3.json"), "{heading}");

    let report = run_in(
        dir.path(),
        &["report", "--format", "markdown", "@octocat #3.json"],
    );
    assert_eq!(report.status.code(), Some(0), "{report:?}");
    no_autolinks(
        "report --format markdown",
        &String::from_utf8_lossy(&report.stdout),
    );

    let written = run_in(
        dir.path(),
        &["report", "-o", "@octocat.md", "@octocat #3.json"],
    );
    assert_eq!(written.status.code(), Some(0), "{written:?}");
    let md = std::fs::read_to_string(dir.path().join("@octocat.md")).unwrap();
    // The chart links name the files written (a link's target is not
    // text GitHub links); the text around them links nothing.
    let text: String = md
        .lines()
        .filter(|l| !l.starts_with("!["))
        .collect::<Vec<_>>()
        .join("\n");
    no_autolinks("report -o x.md", &text);
}
