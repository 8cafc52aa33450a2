//! Overrides at the use site: a property narrows one field or variant of a derived type, and the
//! result stays reflective (reflection, `check`, shrinking, replay).

use refgen::interpret::{check, generate_recorded, parse_tree, reflect};
use refgen::prelude::*;
use refgen::runner::RunError;

#[derive(Debug, Clone, PartialEq, Reflective)]
struct User {
    #[choice(regex = "[a-z]{1,8}")]
    name: String,
    age: u32,
}

#[derive(Debug, Clone, PartialEq, Reflective)]
enum Tree {
    Leaf,
    Node(Box<Tree>, u8, Box<Tree>),
}

impl Tree {
    fn keys(&self, out: &mut Vec<u8>) {
        if let Tree::Node(l, k, r) = self {
            l.keys(out);
            out.push(*k);
            r.keys(out);
        }
    }
}

#[derive(Debug, Clone, PartialEq, Reflective)]
enum Shape {
    Circle {
        #[choice(range = 1..=1000)]
        radius: u32,
    },
    Square(#[choice(range = 1..=1000)] u32),
}

fn adults() -> Overriding<User> {
    overriding::<User>().field("age", int(18u32..=120))
}

/// Every value the generator makes is reflected back into the choices that made it, and parsed
/// from them again.
fn round_trips<G: Gen>(g: &G, seeds: std::ops::Range<u64>) -> Vec<G::Value>
where
    G::Value: PartialEq + std::fmt::Debug,
{
    let mut made = Vec::new();
    for seed in seeds {
        let (v, choices) = generate_recorded(g, seed);
        let Ok(v) = v else { continue };
        assert!(reflect(g, &v).contains(&choices.without_retries()), "seed {seed}: {v:?} is not reflected");
        assert_eq!(parse_tree(g, &choices).as_ref(), Ok(&v), "seed {seed}");
        made.push(v);
    }
    assert!(made.len() > 100, "made {} values", made.len());
    made
}

#[test]
fn an_overridden_field_holds_and_round_trips() {
    let g = adults();
    let made = round_trips(&g, 0..300);
    assert!(made.iter().all(|u| (18..=120).contains(&u.age)));
    // The other field is the type's own: its regex still holds.
    assert!(made.iter().all(|u| (1..=8).contains(&u.name.len()) && u.name.bytes().all(|b| b.is_ascii_lowercase())));
    assert!(check(&g, &User { name: "ann".into(), age: 18 }));
    assert!(!check(&g, &User { name: "ann".into(), age: 17 }));
    // The type's own generator is unchanged.
    assert!(check(&User::generator(), &User { name: "ann".into(), age: 17 }));
}

#[test]
fn an_override_holds_at_every_level_of_a_recursive_type() {
    let g = overriding::<Tree>().field("Node.1", int(0u8..=9));
    let made = round_trips(&g, 0..300);
    let mut keys = Vec::new();
    made.iter().for_each(|t| t.keys(&mut keys));
    assert!(keys.len() > 100 && keys.iter().all(|k| *k <= 9), "{} keys", keys.len());
    let deep =
        Tree::Node(Box::new(Tree::Node(Box::new(Tree::Leaf), 12, Box::new(Tree::Leaf))), 3, Box::new(Tree::Leaf));
    assert!(!check(&g, &deep));
    assert!(check(&Tree::generator(), &deep));
}

#[test]
fn an_overridden_variant_is_made_by_its_generator() {
    let unit_circle = just(Shape::Circle { radius: 1 });
    let g = overriding::<Shape>().variant("Circle", unit_circle);
    let made = round_trips(&g, 0..300);
    assert!(made.iter().any(|s| matches!(s, Shape::Square(_))));
    assert!(made.iter().filter(|s| matches!(s, Shape::Circle { .. })).all(|s| *s == Shape::Circle { radius: 1 }));
    assert!(made.iter().any(|s| matches!(s, Shape::Circle { .. })));
    assert!(!check(&g, &Shape::Circle { radius: 2 }));
    // A field of a variant, by the variant's name and the field's.
    let g = overriding::<Shape>().field("Square.0", int(5u32..=6));
    let made = round_trips(&g, 0..300);
    assert!(made.iter().all(|s| !matches!(s, Shape::Square(r) if !(5..=6).contains(r))));
}

#[test]
fn a_variant_override_of_another_variant_is_rejected() {
    // Where the pick chooses `Circle`, the override's `Square(3)` is rejected, not kept: the values
    // made are the `Square` arm's own (3 among 1..=1000 comes up about once in a thousand).
    let g = overriding::<Shape>().variant("Circle", just(Shape::Square(3)));
    let made: Vec<Shape> = (0..200).filter_map(|seed| refgen::generate(&g, seed).ok()).collect();
    assert!(made.len() < 180, "{} of 200 made: the circles were not rejected", made.len());
    assert!(made.iter().filter(|s| **s == Shape::Square(3)).count() <= 1);
    assert!(made.iter().all(|s| matches!(s, Shape::Square(_)) && check(&g, s)));
}

#[test]
fn a_failure_under_an_override_shrinks_and_replays() {
    // The planted bug: an adult of 65 or more with a name of three letters or more.
    let p = Property::new(adults, |u: User| !(u.age >= 65 && u.name.len() >= 3));
    for seed in 1..=3 {
        let config = Config::new("overrides::retirement").seed(seed).cases(5_000).no_regressions();
        let Err(RunError::Failed(f)) = p.check(&config) else {
            panic!("seed {seed}: the planted bug is found");
        };
        let shrunk = p.value_of(&f).expect("the shrunk case parses");
        // Minimal within the override: the smallest failing age, the shortest failing name.
        assert_eq!(shrunk, User { name: "aaa".into(), age: 65 }, "seed {seed}");
        let Err(RunError::Failed(again)) = p.check(&config.clone().replay(f.token.clone())) else {
            panic!("seed {seed}: the token {} replays a failure", f.token);
        };
        assert_eq!(p.value_of(&again).as_ref(), Some(&shrunk), "seed {seed}");
    }
}

#[property(cases = 300)]
fn adults_are_adults(#[with(adults())] u: User) {
    assert!(u.age >= 18);
}

#[test]
#[should_panic(expected = "has no field `agee` to override; its fields that can be: `name`, `age`")]
fn a_misspelled_field_names_the_fields() {
    let _ = overriding::<User>().field("agee", int(18u32..=120));
}

#[test]
#[should_panic(expected = "the field `age` of `")]
fn a_generator_of_another_type_is_refused() {
    let _ = overriding::<User>().field("age", int(18i64..=120));
}

#[test]
#[should_panic(expected = "has no parts to override")]
fn a_type_without_parts_is_refused() {
    let _ = overriding::<u32>();
}
