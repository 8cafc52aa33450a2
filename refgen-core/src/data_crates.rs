//! `Reflective` for the most used data crates' types, each behind the feature of its crate's name: `chrono`, `uuid`, `serde_json`.
//!
//! Each favours the values where bugs hide and shrinks toward the simplest:
//! - `uuid::Uuid`: the nil UUID first (what shrinking reaches), the max
//!   UUID, a random version-4 UUID most often, and any 128 bits;
//! - `chrono::NaiveDate`: a day from 1970 to 2100 most often (shrinking
//!   toward 1970-01-01), edge days (leap days, the ends of months and years,
//!   2038-01-19), and any day chrono can hold; `NaiveTime`: whole seconds
//!   most often (midnight first), any nanosecond otherwise (no leap
//!   second); `NaiveDateTime` and `DateTime<Utc>` their pair;
//! - `serde_json::Value`: `null`, booleans, numbers (integers with their
//!   edges, `u64`s past `i64::MAX`, finite floats), strings, and arrays and
//!   objects of default length (see [`crate::combinators::sizes`]), nested
//!   to a depth of 4; an object reflects as its entries in its map's order.

#[cfg(feature = "uuid")]
mod uuid_impl {
    use crate::combinators::{int, just, pick};
    use crate::gen::{BoxGen, Gen};
    use crate::reflective::Reflective;
    use uuid::Uuid;

    /// The 122 random bits of a version-4 UUID, spread around its version and variant bits.
    fn v4(r: u128) -> Uuid {
        let (hi, mid, lo) = (r >> 74, (r >> 62) & 0xfff, r & ((1 << 62) - 1));
        Uuid::from_u128(hi << 80 | 4 << 76 | mid << 64 | 0b10 << 62 | lo)
    }

    /// The random bits of a version-4 UUID (`None` for another kind).
    fn v4_bits(u: &Uuid) -> Option<u128> {
        let x = u.as_u128();
        let is_v4 = (x >> 76) & 0xf == 4 && (x >> 62) & 0b11 == 0b10;
        is_v4.then_some((x >> 80) << 74 | ((x >> 64) & 0xfff) << 62 | (x & ((1 << 62) - 1)))
    }

    impl Reflective for Uuid {
        /// The nil UUID (first: shrinking goes there), the max UUID, a random
        /// version-4 UUID (most often) or any 128 bits.
        fn generator() -> BoxGen<Self> {
            let random = int(0u128..=(1 << 122) - 1).site("uuid.v4").map(v4, v4_bits).boxed();
            let any = u128::generator().map(Uuid::from_u128, |u: &Uuid| Some(u.as_u128())).boxed();
            pick(
                "Uuid",
                [
                    ("nil", 1, just(Uuid::nil()).boxed()),
                    ("max", 1, just(Uuid::max()).boxed()),
                    ("v4", 6, random),
                    ("any", 2, any),
                ],
            )
            .boxed()
        }
    }
}

#[cfg(feature = "chrono")]
mod chrono_impl {
    use crate::combinators::{int, pick};
    use crate::gen::{BoxGen, Gen};
    use crate::reflective::Reflective;
    use chrono::{DateTime, Datelike, NaiveDate, NaiveDateTime, NaiveTime, Timelike, Utc};

    /// 1970-01-01 as days from the first day of the common era.
    const EPOCH: i32 = 719_163;
    /// 2100-12-31 as days from the first day of the common era.
    const END_2100: i32 = 767_010;
    /// Edge days: leap days, the ends of months and years, the last day of a 32-bit Unix time.
    const EDGES: [(i32, u32, u32); 8] = [
        (2000, 2, 29),
        (2024, 2, 29),
        (1900, 2, 28),
        (1999, 12, 31),
        (2000, 1, 1),
        (2038, 1, 19),
        (2023, 4, 30),
        (1969, 12, 31),
    ];

    fn day(n: i32) -> NaiveDate {
        NaiveDate::from_num_days_from_ce_opt(n).expect("a day in chrono's range")
    }

    impl Reflective for NaiveDate {
        /// A day from 1970 to 2100 (first: shrinking goes toward 1970-01-01), an edge day, or any day.
        fn generator() -> BoxGen<Self> {
            let days = |lo: i32, hi: i32, site| {
                int(lo..=hi)
                    .site(site)
                    .map(day, move |d: &NaiveDate| {
                        let n = d.num_days_from_ce();
                        (lo..=hi).contains(&n).then_some(n)
                    })
                    .boxed()
            };
            let edges: Vec<NaiveDate> =
                EDGES.iter().map(|&(y, m, d)| NaiveDate::from_ymd_opt(y, m, d).expect("an edge day")).collect();
            let edge = int(0..=edges.len() - 1)
                .site("date.edge")
                .map(
                    {
                        let edges = edges.clone();
                        move |i| edges[i]
                    },
                    move |d: &NaiveDate| edges.iter().position(|e| e == d),
                )
                .boxed();
            let (min, max) = (NaiveDate::MIN.num_days_from_ce(), NaiveDate::MAX.num_days_from_ce());
            pick(
                "NaiveDate",
                [
                    ("modern", 8, days(EPOCH, END_2100, "date.days")),
                    ("edge", 1, edge),
                    ("any", 1, days(min, max, "date.any")),
                ],
            )
            .boxed()
        }
    }

    impl Reflective for NaiveTime {
        /// Seconds from midnight, whole most often (midnight first), or to the nanosecond.
        fn generator() -> BoxGen<Self> {
            let secs = || int(0u32..=86_399).site("time.secs");
            let time = |s: u32, n: u32| NaiveTime::from_num_seconds_from_midnight_opt(s, n).expect("a time of day");
            let whole = secs()
                .map(move |s| time(s, 0), |t: &NaiveTime| (t.nanosecond() == 0).then(|| t.num_seconds_from_midnight()))
                .boxed();
            let nanos = int(0u32..=999_999_999).site("time.nanos");
            let any = (secs(), nanos)
                .map(
                    move |(s, n)| time(s, n),
                    |t: &NaiveTime| {
                        (t.nanosecond() < 1_000_000_000).then(|| (t.num_seconds_from_midnight(), t.nanosecond()))
                    },
                )
                .boxed();
            pick("NaiveTime", [("whole", 3, whole), ("any", 1, any)]).boxed()
        }
    }

    impl Reflective for NaiveDateTime {
        /// A day and a time of day, each as its own generator makes it.
        fn generator() -> BoxGen<Self> {
            (NaiveDate::generator(), NaiveTime::generator())
                .map(|(d, t)| d.and_time(t), |dt: &NaiveDateTime| Some((dt.date(), dt.time())))
                .boxed()
        }
    }

    impl Reflective for DateTime<Utc> {
        /// A [`NaiveDateTime`] in UTC.
        fn generator() -> BoxGen<Self> {
            NaiveDateTime::generator().map(|dt| dt.and_utc(), |t: &DateTime<Utc>| Some(t.naive_utc())).boxed()
        }
    }
}

#[cfg(feature = "serde_json")]
mod json_impl {
    use crate::combinators::{float, just, lazy, pick, sized_string, sized_vec};
    use crate::gen::{BoxGen, Gen};
    use crate::reflective::Reflective;
    use serde_json::{Map, Number, Value};

    /// How deep arrays and objects nest.
    const DEPTH: usize = 4;

    fn number() -> BoxGen<Number> {
        let int = i64::generator().map(Number::from, |n: &Number| n.as_i64()).boxed();
        let big = crate::combinators::int(i64::MAX as u64 + 1..=u64::MAX)
            .site("json.u64")
            .map(Number::from, |n: &Number| n.as_u64().filter(|&u| u > i64::MAX as u64))
            .boxed();
        let finite = float::<f64>()
            .filter(|x: &f64| x.is_finite())
            .map(
                |x| Number::from_f64(x).expect("a finite float"),
                |n: &Number| if n.is_f64() { n.as_f64() } else { None },
            )
            .boxed();
        pick("Number", [("int", 6, int), ("u64", 1, big), ("float", 3, finite)]).boxed()
    }

    fn value(depth: usize) -> BoxGen<Value> {
        let null = just(Value::Null).boxed();
        let boolean = bool::generator().map(Value::Bool, |v: &Value| v.as_bool()).boxed();
        let num = number().map(Value::Number, |v: &Value| v.as_number().cloned()).boxed();
        let string =
            sized_string(char::generator()).map(Value::String, |v: &Value| v.as_str().map(str::to_owned)).boxed();
        let mut options = vec![("null", 1, null), ("bool", 1, boolean), ("number", 2, num), ("string", 2, string)];
        if depth > 0 {
            let array =
                sized_vec(lazy(move || value(depth - 1))).map(Value::Array, |v: &Value| v.as_array().cloned()).boxed();
            let entry = (sized_string(char::generator()), lazy(move || value(depth - 1)));
            let object = sized_vec(entry)
                .map(
                    |entries| Value::Object(entries.into_iter().collect::<Map<String, Value>>()),
                    |v: &Value| v.as_object().map(|m| m.iter().map(|(k, v)| (k.clone(), v.clone())).collect()),
                )
                .boxed();
            options.extend([("array", 1, array), ("object", 1, object)]);
        }
        pick("Value", options).boxed()
    }

    impl Reflective for Value {
        /// Any JSON value, nested to a depth of 4 (`null` first: shrinking goes there).
        fn generator() -> BoxGen<Self> {
            value(DEPTH)
        }
    }
}

#[cfg(test)]
#[allow(unused_imports)] // each test is behind its crate's feature
mod tests {
    use crate::interpret::{check, generate, parse_tree, reflect};
    use crate::laws;
    use crate::reflective::Reflective;
    use std::fmt::Debug;

    /// Every generated value reflects, and each of its ways parses back to it.
    #[allow(dead_code)]
    fn reflects<T: Reflective + PartialEq + Debug>(seeds: u64) -> Vec<T> {
        let g = T::generator();
        (0..seeds)
            .map(|s| {
                let v = generate(&g, s).unwrap_or_else(|e| panic!("seed {s}: {e}"));
                let trees = reflect(&g, &v);
                assert!(!trees.is_empty(), "seed {s}: {v:?} does not reflect");
                assert!(trees.iter().all(|t| parse_tree(&g, t).as_ref() == Ok(&v)), "seed {s}: {v:?}");
                v
            })
            .collect()
    }

    /// Whether `v` is made by every choice 0: the value shrinking goes toward.
    #[allow(dead_code)]
    fn simplest<T>(g: &crate::gen::BoxGen<T>, v: &T) -> bool {
        reflect(g, v).iter().any(|t| t.choices().iter().all(|&c| c == 0))
    }

    #[cfg(feature = "uuid")]
    #[test]
    fn uuids_keep_the_laws_and_favour_their_edges() {
        use uuid::Uuid;
        assert_eq!(laws::round_trip(&Uuid::generator(), 300), 300);
        let all = reflects::<Uuid>(400);
        assert!(all.contains(&Uuid::nil()) && all.contains(&Uuid::max()));
        let v4 = all.iter().filter(|u| u.get_version_num() == 4).count();
        assert!(v4 > 200, "{v4} of 400 are version 4");
        assert!(check(&Uuid::generator(), &Uuid::from_u128(0x1234)));
        assert!(simplest(&Uuid::generator(), &Uuid::nil()));
    }

    #[cfg(feature = "chrono")]
    #[test]
    fn dates_and_times_keep_the_laws_and_favour_their_edges() {
        use chrono::{DateTime, NaiveDate, NaiveDateTime, NaiveTime, Utc};
        assert_eq!(laws::round_trip(&NaiveDate::generator(), 300), 300);
        assert_eq!(laws::round_trip(&NaiveTime::generator(), 300), 300);
        assert_eq!(laws::round_trip(&NaiveDateTime::generator(), 300), 300);
        assert_eq!(laws::round_trip(&DateTime::<Utc>::generator(), 300), 300);
        let days = reflects::<NaiveDate>(400);
        let modern = days.iter().filter(|d| (1970..=2100).contains(&chrono::Datelike::year(*d))).count();
        assert!(modern > 280, "{modern} of 400 from 1970 to 2100");
        assert!(days.iter().any(|d| chrono::Datelike::month(d) == 2 && chrono::Datelike::day(d) == 29));
        assert!(check(&NaiveDate::generator(), &NaiveDate::MIN) && check(&NaiveDate::generator(), &NaiveDate::MAX));
        let midnight = NaiveTime::from_hms_opt(0, 0, 0).expect("midnight");
        assert!(reflects::<NaiveTime>(200).iter().filter(|t| chrono::Timelike::nanosecond(*t) == 0).count() > 100);
        // What shrinking reaches (every choice 0): 1970-01-01 at midnight.
        let epoch = NaiveDate::from_ymd_opt(1970, 1, 1).expect("a day").and_time(midnight);
        assert!(simplest(&NaiveDateTime::generator(), &epoch));
    }

    #[cfg(feature = "serde_json")]
    #[test]
    fn json_values_reflect_and_nest() {
        use serde_json::{json, Value};
        let values = reflects::<Value>(400);
        for kind in
            [Value::is_null, Value::is_boolean, Value::is_number, Value::is_string, Value::is_array, Value::is_object]
        {
            assert!(values.iter().any(kind), "every kind of value comes up");
        }
        assert!(values.iter().any(|v| v.as_u64().is_some_and(|u| u > i64::MAX as u64)));
        assert!(values.iter().any(|v| v.as_f64().is_some() && v.as_i64().is_none()));
        let g = Value::generator();
        assert!(check(&g, &json!({"a": [1, 2.5, null, "x"], "b": {"c": true}})));
        assert!(check(&g, &json!(u64::MAX)));
        assert!(simplest(&g, &Value::Null));
    }
}
