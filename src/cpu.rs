//! Which instructions the engines' hot loops may use, chosen at run time.
//!
//! The binary is built for the portable baseline of its architecture, so it
//! starts on any x86-64. Where a search spends its time (othello's solver
//! and midgame search, its pattern reads with `pext`), the code is compiled
//! twice by [`versioned!`]: once for the baseline, once with the x86-64-v3
//! features (AVX2, BMI1, BMI2, LZCNT, POPCNT), and each search picks the
//! second when [`has_v3`] says the CPU has them. Both give the same answers;
//! tests run both.
//!
//! `GAMEAI_CPU=baseline` keeps every search on the baseline code, to compare
//! the two or to rule the fast path out.

use std::sync::OnceLock;

/// Whether this CPU runs the x86-64-v3 versions (and `GAMEAI_CPU` does not
/// rule them out). Read once; cheap afterwards.
pub fn has_v3() -> bool {
    static CHOICE: OnceLock<bool> = OnceLock::new();
    *CHOICE.get_or_init(|| {
        let baseline_wanted = std::env::var("GAMEAI_CPU").is_ok_and(|v| v == "baseline");
        !baseline_wanted && cpu_has_v3()
    })
}

#[cfg(target_arch = "x86_64")]
fn cpu_has_v3() -> bool {
    std::is_x86_feature_detected!("avx2")
        && std::is_x86_feature_detected!("bmi1")
        && std::is_x86_feature_detected!("bmi2")
        && std::is_x86_feature_detected!("lzcnt")
        && std::is_x86_feature_detected!("popcnt")
}

#[cfg(not(target_arch = "x86_64"))]
fn cpu_has_v3() -> bool {
    false
}

/// What the service reports about the code it runs: `x86-64-v3` or
/// `baseline`.
pub fn level() -> &'static str {
    if has_v3() { "x86-64-v3" } else { "baseline" }
}

/// Compiles one function twice, for the baseline and for x86-64-v3, behind
/// a dispatcher with a `const` parameter (named by the caller, e.g. `V3`)
/// that says which runs.
///
/// ```ignore
/// versioned! { V3;
///     /// Docs go on the dispatcher.
///     pub fn count(&mut self, b: u64) -> u32 { self.helper::<V3>(b) }
/// }
/// ```
///
/// generates `count::<V3>` (always inlined: it costs nothing), and
/// `count_baseline` and `count_v3` (the latter with the features enabled),
/// each holding the body with `V3` a constant. A body calls other versioned
/// functions as `f::<V3>(…)`, so a search stays in one version: the v3
/// version's calls go straight to v3 versions, and the plain `#[inline]`
/// helpers they use are inlined into them and compiled with the features
/// too. Callers outside pick the version once, with [`has_v3`].
#[macro_export]
macro_rules! versioned {
    ($v3:ident;
        $(#[$attr:meta])*
        $vis:vis fn $name:ident(&mut $self:ident $(, $arg:ident: $ty:ty)* $(,)?) $(-> $ret:ty)? $body:block
    ) => {
        $crate::versioned!(@emit $v3; [$(#[$attr])*] $vis $name [$self.]
            [&mut $self, $($arg: $ty),*] [$($arg),*] [$(-> $ret)?] $body);
    };
    ($v3:ident;
        $(#[$attr:meta])*
        $vis:vis fn $name:ident(&$self:ident $(, $arg:ident: $ty:ty)* $(,)?) $(-> $ret:ty)? $body:block
    ) => {
        $crate::versioned!(@emit $v3; [$(#[$attr])*] $vis $name [$self.]
            [&$self, $($arg: $ty),*] [$($arg),*] [$(-> $ret)?] $body);
    };
    ($v3:ident;
        $(#[$attr:meta])*
        $vis:vis fn $name:ident($($arg:ident: $ty:ty),* $(,)?) $(-> $ret:ty)? $body:block
    ) => {
        $crate::versioned!(@emit $v3; [$(#[$attr])*] $vis $name []
            [$($arg: $ty),*] [$($arg),*] [$(-> $ret)?] $body);
    };
    (@emit $v3:ident; [$($attr:tt)*] $vis:vis $name:ident [$($call:tt)*]
        [$($params:tt)*] [$($args:tt)*] [$($ret:tt)*] $body:block
    ) => {
        $crate::pastey::paste! {
            $($attr)*
            #[inline(always)]
            #[allow(clippy::too_many_arguments)]
            $vis fn $name<const $v3: bool>($($params)*) $($ret)* {
                #[cfg(target_arch = "x86_64")]
                if $v3 {
                    // SAFETY: a caller asks for v3 only after `has_v3`
                    // found the features on this CPU.
                    return unsafe { $($call)* [<$name _v3>]($($args)*) };
                }
                $($call)* [<$name _baseline>]($($args)*)
            }

            #[allow(clippy::too_many_arguments)]
            fn [<$name _baseline>]($($params)*) $($ret)* {
                #[allow(dead_code)]
                const $v3: bool = false;
                $body
            }

            #[cfg(target_arch = "x86_64")]
            #[target_feature(enable = "avx2,bmi1,bmi2,lzcnt,popcnt")]
            #[allow(clippy::too_many_arguments)]
            fn [<$name _v3>]($($params)*) $($ret)* {
                #[allow(dead_code)]
                const $v3: bool = true;
                $body
            }
        }
    };
}
