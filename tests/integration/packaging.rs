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
                !matches!(top, "src" | "benches" | "boards")
                    && !matches!(
                        **f,
                        "Cargo.toml"
                            | "Cargo.toml.orig"
                            | "Cargo.lock"
                            | ".cargo_vcs_info.json"
                            | "README.md"
                            | "LICENSE-MIT"
                            | "LICENSE-APACHE"
                    )
            })
            .collect();
        assert!(stray.is_empty(), "{package} would publish {stray:?}");
    }
}
