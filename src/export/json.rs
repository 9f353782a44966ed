//! JSON Lines: one object per board with the CSV column names as keys, in the same order, and no
//! header, so every line stands alone. Numbers are JSON numbers, layouts and digests strings.

use serde_json::Value;

use super::{Export, ExportError};
use crate::row::{Cell, CellKind, Column, Row, RowKind, RowReadError};

pub struct JsonExport {
    kind: RowKind,
}

impl JsonExport {
    pub fn new(kind: RowKind) -> JsonExport {
        JsonExport { kind }
    }
}

impl Export for JsonExport {
    fn header(&mut self) -> Result<Vec<u8>, ExportError> {
        Ok(Vec::new())
    }

    fn row(&mut self, row: &dyn Row) -> Result<Vec<u8>, ExportError> {
        // Written by hand so that seconds read as in the CSV (0.000012, not 1.2e-5).
        let mut line = String::from("{");
        for (i, &column) in self.kind.columns().iter().enumerate() {
            if i > 0 {
                line.push(',');
            }
            line.push_str(&serde_json::to_string(column.name())?);
            line.push(':');
            match row.cell(column) {
                Cell::Text(t) => line.push_str(&serde_json::to_string(&t)?),
                other => line.push_str(&other.text()),
            }
        }
        line.push_str("}\n");
        Ok(line.into_bytes())
    }
}

/// The members of the JSON object `line`, in order. A key given twice is refused: a JSON parser
/// keeps one of the two values (serde_json the last), so the row would say two things at once.
pub fn json_members(line: &str) -> Result<Vec<(String, Value)>, RowReadError> {
    let Members(members) =
        serde_json::from_str(line).map_err(|e| RowReadError::Json(e.to_string()))?;
    for (i, (key, _)) in members.iter().enumerate() {
        if members[..i].iter().any(|(k, _)| k == key) {
            return Err(RowReadError::RepeatedKey(key.clone()));
        }
    }
    Ok(members)
}

/// An object's members as given, repeated keys included (a map would keep only one of them).
struct Members(Vec<(String, Value)>);

impl<'de> serde::Deserialize<'de> for Members {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Members, D::Error> {
        struct Visitor;
        impl<'de> serde::de::Visitor<'de> for Visitor {
            type Value = Members;

            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str("a JSON object")
            }

            fn visit_map<A: serde::de::MapAccess<'de>>(
                self,
                mut map: A,
            ) -> Result<Members, A::Error> {
                let mut members = Vec::new();
                while let Some(key) = map.next_key::<String>()? {
                    members.push((key, map.next_value::<Value>()?));
                }
                Ok(Members(members))
            }
        }
        deserializer.deserialize_map(Visitor)
    }
}

/// Every column of `expected` (the columns of the row kind the reader wants) is read from its key;
/// a key that names no such column, or a value of the wrong JSON type, is refused. A line without
/// `digest` is a row written before rows carried one.
pub(super) fn read_cells(
    expected: &[Column],
    line: &str,
) -> Result<(Vec<Column>, Vec<String>), RowReadError> {
    let object = json_members(line)?;
    let known = expected;
    let mut columns = Vec::new();
    let mut texts = Vec::new();
    for (key, value) in &object {
        let Some(&column) = known.iter().find(|c| c.name() == key) else {
            let counted = |k: &[Column]| k.contains(&Column::Layouts);
            let hint = if !counted(expected)
                && counted(RowKind::Count.columns())
                && RowKind::Count.columns().iter().any(|c| c.name() == key)
            {
                " (a row with counts, made with --count)"
            } else {
                ""
            };
            return Err(RowReadError::Json(format!("unknown field `{key}`{hint}")));
        };
        let text = match (column.kind(), value) {
            (CellKind::Text, Value::String(s)) => s.clone(),
            (CellKind::Whole | CellKind::Seconds, Value::Number(n)) => n.to_string(),
            _ => {
                return Err(RowReadError::Json(format!(
                    "field `{key}` is {value}, expected {}",
                    match column.kind() {
                        CellKind::Text => "a string",
                        _ => "a number",
                    }
                )))
            }
        };
        columns.push(column);
        texts.push(text);
    }
    let missing: Vec<&str> = known
        .iter()
        .filter(|c| **c != Column::Digest && !columns.contains(c))
        .map(|c| c.name())
        .collect();
    if !missing.is_empty() {
        return Err(RowReadError::Json(format!(
            "missing field `{}`",
            missing.join("`, `")
        )));
    }
    Ok((columns, texts))
}
