//! `Reflective` for more standard types: `Result`, network addresses, ranges, wrappers, `OsString`, `Ordering`.
//!
//! Each is built from the generators of [`crate::reflective`] by a map with its
//! backward function, so each value reflects, shrinks and persists as its parts
//! do: an address as its integer (0, 1 and the largest come up often, and shrink
//! toward `0.0.0.0`), a range as its two ends (empty and reversed ranges
//! included: a range a function is given can be either).

use crate::combinators::{just, pick};
use crate::gen::{BoxGen, Gen};
use crate::reflective::Reflective;
use std::cmp::{Ordering, Reverse};
use std::ffi::OsString;
use std::net::{IpAddr, Ipv4Addr, Ipv6Addr, SocketAddr, SocketAddrV4, SocketAddrV6};
use std::num::{Saturating, Wrapping};
use std::ops::{Range, RangeInclusive};

impl<T: Reflective + Clone, E: Reflective + Clone> Reflective for Result<T, E> {
    /// `Ok` three times in four, `Err` otherwise (`Ok` first: shrinking and lenient replay go there).
    fn generator() -> BoxGen<Self> {
        let ok = T::generator().map(Ok, |r: &Result<T, E>| r.as_ref().ok().cloned()).boxed();
        let err = E::generator().map(Err, |r: &Result<T, E>| r.as_ref().err().cloned()).boxed();
        pick("Result", [("Ok", 3, ok), ("Err", 1, err)]).boxed()
    }
}

impl Reflective for Ordering {
    /// `Less`, `Equal` or `Greater`, equally often.
    fn generator() -> BoxGen<Self> {
        let options = [("Less", Ordering::Less), ("Equal", Ordering::Equal), ("Greater", Ordering::Greater)];
        pick("Ordering", options.map(|(label, o)| (label, 1, just(o).boxed()))).boxed()
    }
}

impl Reflective for Ipv4Addr {
    /// An address as its `u32` (the default integer's: `0.0.0.0`, `0.0.0.1` and `255.255.255.255` often).
    fn generator() -> BoxGen<Self> {
        u32::generator().map(Ipv4Addr::from, |a: &Ipv4Addr| Some(u32::from(*a))).boxed()
    }
}

impl Reflective for Ipv6Addr {
    /// An address as its `u128` (the default integer's: `::`, `::1` and all ones often).
    fn generator() -> BoxGen<Self> {
        u128::generator().map(Ipv6Addr::from, |a: &Ipv6Addr| Some(u128::from(*a))).boxed()
    }
}

impl Reflective for IpAddr {
    /// Version 4 three times in four, version 6 otherwise.
    fn generator() -> BoxGen<Self> {
        let v4 = Ipv4Addr::generator()
            .map(IpAddr::V4, |a: &IpAddr| match a {
                IpAddr::V4(a) => Some(*a),
                IpAddr::V6(_) => None,
            })
            .boxed();
        let v6 = Ipv6Addr::generator()
            .map(IpAddr::V6, |a: &IpAddr| match a {
                IpAddr::V6(a) => Some(*a),
                IpAddr::V4(_) => None,
            })
            .boxed();
        pick("IpAddr", [("V4", 3, v4), ("V6", 1, v6)]).boxed()
    }
}

impl Reflective for SocketAddrV4 {
    fn generator() -> BoxGen<Self> {
        (Ipv4Addr::generator(), u16::generator())
            .map(|(ip, port)| SocketAddrV4::new(ip, port), |a: &SocketAddrV4| Some((*a.ip(), a.port())))
            .boxed()
    }
}

impl Reflective for SocketAddrV6 {
    /// An address and a port; the flow label and the scope are 0 (a value with others does not reflect).
    fn generator() -> BoxGen<Self> {
        (Ipv6Addr::generator(), u16::generator())
            .map(
                |(ip, port)| SocketAddrV6::new(ip, port, 0, 0),
                |a: &SocketAddrV6| (a.flowinfo() == 0 && a.scope_id() == 0).then_some((*a.ip(), a.port())),
            )
            .boxed()
    }
}

impl Reflective for SocketAddr {
    /// An [`IpAddr`] and a port (a version 6 address with its flow label and scope 0).
    fn generator() -> BoxGen<Self> {
        (IpAddr::generator(), u16::generator())
            .map(
                |(ip, port)| SocketAddr::new(ip, port),
                |a: &SocketAddr| match a {
                    SocketAddr::V6(v6) if v6.flowinfo() != 0 || v6.scope_id() != 0 => None,
                    _ => Some((a.ip(), a.port())),
                },
            )
            .boxed()
    }
}

impl<T: Reflective + Clone> Reflective for Range<T> {
    /// Any two values as `start..end`: empty and reversed ranges included.
    fn generator() -> BoxGen<Self> {
        (T::generator(), T::generator())
            .map(|(a, b)| a..b, |r: &Range<T>| Some((r.start.clone(), r.end.clone())))
            .boxed()
    }
}

impl<T: Reflective + Clone> Reflective for RangeInclusive<T> {
    /// Any two values as `start..=end`: empty (reversed) ranges included. Backward, a range is its
    /// two ends (one that iteration has exhausted reflects as the fresh range with the same ends).
    fn generator() -> BoxGen<Self> {
        (T::generator(), T::generator())
            .map(|(a, b)| a..=b, |r: &RangeInclusive<T>| Some((r.start().clone(), r.end().clone())))
            .boxed()
    }
}

/// Wrappers made from their one field.
macro_rules! reflective_wrapper {
    ($($w:ident => $get:expr),* $(,)?) => {$(
        impl<T: Reflective + Clone> Reflective for $w<T> {
            fn generator() -> BoxGen<Self> {
                T::generator().map($w, |w: &$w<T>| Some($get(w))).boxed()
            }
        }
    )*};
}
reflective_wrapper! {
    Wrapping => |w: &Wrapping<T>| w.0.clone(),
    Saturating => |w: &Saturating<T>| w.0.clone(),
    Reverse => |w: &Reverse<T>| w.0.clone(),
}

impl Reflective for OsString {
    /// A `String`'s generator, as an `OsString` (one that is not Unicode does not reflect).
    fn generator() -> BoxGen<Self> {
        String::generator().map(OsString::from, |s: &OsString| s.to_str().map(str::to_owned)).boxed()
    }
}
