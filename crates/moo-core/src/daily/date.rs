//! Calendar dates (proleptic Gregorian, UTC), counted in days since 1970-01-01: the daily
//! puzzle needs only days, their order and their `YYYY-MM-DD` form, so a date is one integer
//! and no time-zone library comes in.

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Deserializer, Serialize, Serializer};

use super::DailyError;

/// A calendar day, written `YYYY-MM-DD`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Date {
    /// Days since 1970-01-01.
    days: i64,
}

/// The first year a date may have: no daily puzzle comes before it, and four digits keep the
/// written form and its order the same.
const FIRST_YEAR: i64 = 1970;
const LAST_YEAR: i64 = 9999;

impl Date {
    /// The date `days` days after 1970-01-01.
    pub const fn from_days(days: i64) -> Date {
        Date { days }
    }

    /// Days since 1970-01-01.
    pub fn days(self) -> i64 {
        self.days
    }

    /// The date of `year`, `month` (1-12) and `day` (1-31), refused if no such day exists.
    pub fn from_ymd(year: i64, month: u32, day: u32) -> Option<Date> {
        let valid = (FIRST_YEAR..=LAST_YEAR).contains(&year)
            && (1..=12).contains(&month)
            && day >= 1
            && day <= days_in_month(year, month);
        valid.then(|| Date {
            days: days_from_civil(year, month, day),
        })
    }

    /// The year, month and day.
    pub fn ymd(self) -> (i64, u32, u32) {
        civil_from_days(self.days)
    }

    /// Today in UTC, by this machine's clock (the page's, in the browser).
    pub fn today() -> Date {
        let secs = web_time::SystemTime::now()
            .duration_since(web_time::UNIX_EPOCH)
            .map_or(0, |d| d.as_secs());
        Date::from_days((secs / 86_400) as i64)
    }

    /// The day after.
    pub fn next(self) -> Date {
        Date::from_days(self.days + 1)
    }
}

/// Howard Hinnant's `days_from_civil`: days since 1970-01-01 of a proleptic Gregorian date.
fn days_from_civil(year: i64, month: u32, day: u32) -> i64 {
    let y = if month <= 2 { year - 1 } else { year };
    let era = y.div_euclid(400);
    let yoe = y - era * 400;
    let m = month as i64;
    let doy = (153 * (if m > 2 { m - 3 } else { m + 9 }) + 2) / 5 + day as i64 - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    era * 146_097 + doe - 719_468
}

/// The inverse of [`days_from_civil`].
fn civil_from_days(days: i64) -> (i64, u32, u32) {
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = (doy - (153 * mp + 2) / 5 + 1) as u32;
    let month = if mp < 10 { mp + 3 } else { mp - 9 } as u32;
    let year = yoe + era * 400 + i64::from(month <= 2);
    (year, month, day)
}

fn days_in_month(year: i64, month: u32) -> u32 {
    match month {
        2 if year % 4 == 0 && (year % 100 != 0 || year % 400 == 0) => 29,
        2 => 28,
        4 | 6 | 9 | 11 => 30,
        _ => 31,
    }
}

impl fmt::Display for Date {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let (y, m, d) = self.ymd();
        write!(f, "{y:04}-{m:02}-{d:02}")
    }
}

impl FromStr for Date {
    type Err = DailyError;

    /// Reads `YYYY-MM-DD` exactly: four, two and two digits.
    fn from_str(text: &str) -> Result<Date, DailyError> {
        let bad = || DailyError::BadDate {
            text: crate::text::excerpt(text),
        };
        let b = text.as_bytes();
        let shaped = b.len() == 10
            && b[4] == b'-'
            && b[7] == b'-'
            && b.iter()
                .enumerate()
                .all(|(i, c)| i == 4 || i == 7 || c.is_ascii_digit());
        if !shaped {
            return Err(bad());
        }
        let year = text[..4].parse().map_err(|_| bad())?;
        let month = text[5..7].parse().map_err(|_| bad())?;
        let day = text[8..].parse().map_err(|_| bad())?;
        Date::from_ymd(year, month, day).ok_or_else(bad)
    }
}

impl Serialize for Date {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}

impl<'de> Deserialize<'de> for Date {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Date, D::Error> {
        let text = String::deserialize(d)?;
        text.parse().map_err(serde::de::Error::custom)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dates_round_trip_through_days_and_text() {
        assert_eq!(Date::from_ymd(1970, 1, 1).unwrap().days(), 0);
        assert_eq!(Date::from_ymd(2000, 3, 1).unwrap().days(), 11_017);
        assert_eq!(Date::from_ymd(2024, 1, 1).unwrap().days(), 19_723);
        for days in 0..40_000 {
            let date = Date::from_days(days);
            assert_eq!(date.to_string().parse::<Date>().unwrap(), date);
            assert_eq!(date.next().days(), days + 1);
        }
        assert_eq!(Date::from_days(19_782).to_string(), "2024-02-29");
    }

    #[test]
    fn only_real_days_in_the_exact_form_are_dates() {
        for bad in [
            "2023-02-29",
            "2024-13-01",
            "2024-00-10",
            "2024-04-31",
            "2024-1-01",
            "24-01-01",
            "2024/01/01",
            "2024-01-01 ",
            "+024-01-01",
            "1969-12-31",
            "",
        ] {
            let e = bad.parse::<Date>().unwrap_err();
            assert!(
                e.to_string().contains("write it as YYYY-MM-DD"),
                "{bad}: {e}"
            );
        }
        assert!("2024-02-29".parse::<Date>().is_ok());
        assert!("2000-02-29".parse::<Date>().is_ok());
        assert!("1900-02-29".parse::<Date>().is_err());
    }
}
