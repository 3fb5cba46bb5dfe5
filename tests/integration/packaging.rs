//! What the crates promise their users about packaging (docs/packaging.md):
//! the workspace's `rust-version` is a toolchain old enough to build every
//! crate, and `cargo package` of each published crate holds its sources,
//! README and licences and nothing else.
//!
//! Cargo refuses a dependency that declares a newer `rust-version` than the
//! toolchain, so the first promise holds only while no locked dependency
//! does. Standard-library items newer than it are caught by clippy's
//! `incompatible_msrv` lint, which CI denies.

use serde_json::Value;
use std::process::Command;

/// `major.minor` of a `rust-version` field (`"1.89"`, `"1.89.0"`).
fn minor_version(v: &str) -> Option<(u32, u32)> {
    let mut parts = v.split('.');
    let major = parts.next()?.parse().ok()?;
    let minor = parts.next()?.parse().ok()?;
    Some((major, minor))
}

/// Standard output of `cargo ARGS` in the workspace.
fn cargo(args: &[&str]) -> Vec<u8> {
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
    let out = Command::new(cargo)
        .args(args)
        .current_dir(crate::support::root())
        .output()
        .expect("cargo runs");
    assert!(
        out.status.success(),
        "cargo {args:?} failed:\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    out.stdout
}

/// `cargo metadata` of the workspace, from its lock file. Not offline:
/// `cargo test` fetched only this platform's crates, and the metadata of
/// every platform's (windows-sys and the like) is read from their packages,
/// which cargo downloads the first time.
fn metadata() -> Value {
    let out = cargo(&["metadata", "--format-version", "1", "--locked"]);
    serde_json::from_slice(&out).expect("cargo metadata prints JSON")
}

/// The packages of `meta`, split into the workspace's members and the rest.
fn members_and_dependencies(meta: &Value) -> (Vec<&Value>, Vec<&Value>) {
    let members: Vec<&str> = meta["workspace_members"]
        .as_array()
        .expect("workspace members")
        .iter()
        .filter_map(Value::as_str)
        .collect();
    let split: (Vec<&Value>, Vec<&Value>) = meta["packages"]
        .as_array()
        .expect("packages")
        .iter()
        .partition(|p| members.contains(&p["id"].as_str().unwrap_or_default()));
    assert_eq!(split.0.len(), members.len(), "every member found");
    split
}

#[test]
fn every_locked_dependency_builds_on_the_declared_rust_version() {
    let meta = metadata();
    let (members, dependencies) = members_and_dependencies(&meta);
    // One rust-version, declared by every member (from the workspace).
    let ours = members[0]["rust_version"]
        .as_str()
        .expect("the workspace declares a rust-version");
    for p in &members {
        assert_eq!(
            p["rust_version"].as_str(),
            Some(ours),
            "{} declares another rust-version",
            p["name"]
        );
    }
    let ours = minor_version(ours).expect("rust-version is major.minor");

    let newer: Vec<String> = dependencies
        .iter()
        .filter_map(|p| {
            let v = p["rust_version"].as_str()?;
            let (name, version) = (p["name"].as_str()?, p["version"].as_str()?);
            (minor_version(v)? > ours).then(|| format!("{name} {version} needs {v}"))
        })
        .collect();
    assert!(
        newer.is_empty(),
        "rust-version {}.{} is declared, but these locked dependencies need a newer \
         toolchain (raise rust-version, or pin an older release):\n{}",
        ours.0,
        ours.1,
        newer.join("\n")
    );
    // The check has something to check: most crates declare a version.
    let with_version = dependencies
        .iter()
        .filter(|p| p["rust_version"].is_string())
        .count();
    assert!(
        with_version > 50,
        "only {with_version} packages declare a rust-version"
    );
}

#[test]
fn versions_compare_by_major_then_minor() {
    assert_eq!(minor_version("1.89"), Some((1, 89)));
    assert_eq!(minor_version("1.89.0"), Some((1, 89)));
    assert!(minor_version("1.9").unwrap() < minor_version("1.85").unwrap());
    assert_eq!(minor_version("1"), None);
}

#[test]
fn every_published_crate_packages_its_sources_readme_and_licenses_only() {
    let meta = metadata();
    let (members, _) = members_and_dependencies(&meta);
    let published: Vec<&str> = members
        .iter()
        // `publish = false` reads as an empty list of registries.
        .filter(|p| p["publish"].as_array().is_none_or(|r| !r.is_empty()))
        .filter_map(|p| p["name"].as_str())
        .collect();
    // The chain solver, the core, the renderer, the designer's server and
    // the command; the Python package goes to PyPI instead.
    assert_eq!(published.len(), 5, "published crates: {published:?}");
    for package in published {
        // Offline: the listing needs only the index entries `cargo test` read.
        let list = cargo(&[
            "package",
            "--list",
            "--allow-dirty",
            "--offline",
            "-p",
            package,
        ]);
        let files: Vec<&str> = std::str::from_utf8(&list)
            .expect("file names are UTF-8")
            .lines()
            .collect();
        for needed in ["Cargo.toml", "README.md", "LICENSE-MIT", "LICENSE-APACHE"] {
            assert!(
                files.contains(&needed),
                "{package} ships no {needed}: {files:?}"
            );
        }
        let stray: Vec<&&str> = files
            .iter()
            .filter(|f| {
                let top = f.split('/').next().unwrap_or_default();
                // The problem kinds' page, the renderer's `kinds` docs.
                let problems_page = package == "snakeladder-render" && **f == "docs/problems.md";
                let shipped = problems_page
                    || matches!(top, "src" | "benches" | "boards")
                    || matches!(
                        **f,
                        "Cargo.toml"
                            | "Cargo.toml.orig"
                            | "Cargo.lock"
                            | ".cargo_vcs_info.json"
                            | "README.md"
                            | "LICENSE-MIT"
                            | "LICENSE-APACHE"
                    );
                !shipped
            })
            .collect();
        assert!(stray.is_empty(), "{package} would publish {stray:?}");
    }
}

/// The crates .ci/publish-crates.sh publishes, in its order.
fn publish_order() -> Vec<String> {
    let script =
        std::fs::read_to_string(crate::support::root().join(".ci/publish-crates.sh")).unwrap();
    let line = script
        .lines()
        .find_map(|l| l.strip_prefix("CRATES=("))
        .expect("CRATES=(...) in .ci/publish-crates.sh");
    line.trim_end_matches(')')
        .split_whitespace()
        .map(str::to_string)
        .collect()
}

/// The release publishes every crate whose `publish` allows it, each after
/// every workspace crate it depends on (crates.io refuses a crate whose
/// dependency it does not have yet), and each depends on the others at the
/// workspace's one version.
#[test]
fn the_crates_publish_in_dependency_order_at_one_version() {
    let meta = metadata();
    let (members, _) = members_and_dependencies(&meta);
    let names: Vec<&str> = members.iter().filter_map(|p| p["name"].as_str()).collect();
    let version = members[0]["version"].as_str().unwrap();
    let order = publish_order();
    let mut published: Vec<&str> = members
        .iter()
        .filter(|p| p["publish"].as_array().is_none_or(|r| !r.is_empty()))
        .filter_map(|p| p["name"].as_str())
        .collect();
    published.sort();
    let mut sorted = order.clone();
    sorted.sort();
    assert_eq!(sorted, published, "publish-crates.sh's CRATES");
    for p in &members {
        let name = p["name"].as_str().unwrap();
        assert_eq!(p["version"].as_str(), Some(version), "{name}'s version");
        for dep in p["dependencies"].as_array().unwrap() {
            let dep_name = dep["name"].as_str().unwrap();
            if !names.contains(&dep_name) || dep["kind"].as_str() == Some("dev") {
                continue;
            }
            assert_eq!(
                dep["req"].as_str(),
                Some(format!("^{version}").as_str()),
                "{name} depends on {dep_name} at another version"
            );
            if let Some(at) = order.iter().position(|c| c == name) {
                let dep_at = order.iter().position(|c| c == dep_name);
                assert!(
                    dep_at.is_some_and(|d| d < at),
                    "{name} is published before its dependency {dep_name}: {order:?}"
                );
            }
        }
    }
}

/// The pre-commit hook's installer (pyproject.toml at the root) pins the
/// wheel of the workspace's version, and CHANGELOG.md has that version's
/// section, the release's notes; .ci/release-version.sh, which the release
/// workflow runs on the tag, agrees.
#[test]
fn the_hook_and_the_changelog_name_the_workspace_version() {
    let root = crate::support::root();
    let version = env!("CARGO_PKG_VERSION");
    let hook = std::fs::read_to_string(root.join("pyproject.toml")).unwrap();
    assert!(
        hook.contains(&format!("\nversion = \"{version}\"\n")),
        "{hook}"
    );
    assert!(
        hook.contains(&format!("dependencies = [\"snakeladder=={version}\"]")),
        "{hook}"
    );
    let changelog = std::fs::read_to_string(root.join("CHANGELOG.md")).unwrap();
    assert!(
        changelog.contains(&format!("\n## [{version}]")),
        "CHANGELOG.md"
    );
    let check = |tag: &str| {
        Command::new("bash")
            .arg(root.join(".ci/release-version.sh"))
            .args(["check", tag])
            .output()
            .unwrap()
    };
    let ok = check(&format!("v{version}"));
    assert!(ok.status.success(), "{ok:?}");
    let wrong = check("v0.0.0-not-this");
    assert_eq!(wrong.status.code(), Some(1), "{wrong:?}");
    let notes = Command::new("bash")
        .arg(root.join(".ci/release-version.sh"))
        .arg("notes")
        .output()
        .unwrap();
    let notes = String::from_utf8(notes.stdout).unwrap();
    assert!(notes.contains("### ") && !notes.contains("## ["), "{notes}");
}
