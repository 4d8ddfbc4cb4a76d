//! The path language of tera-toolbox's `queryData`:
//! `/Sheet@attr=?&other>=?/Child/` — steps of names, each with filters on
//! attributes joined by `&`; `?` takes the next argument.

use super::error::QueryError;
use super::op::Op;
use super::value::Arg;

/// What a filter compares with: an argument or a literal of the path.
#[derive(Debug, Clone, PartialEq)]
pub enum Operand {
    /// The argument of this index (the n-th `?`).
    Arg(usize),
    /// A literal: a number, `true`, `false` or a quoted string.
    Literal(Arg),
}

/// `attribute op operand`.
#[derive(Debug, Clone, PartialEq)]
pub struct Filter {
    /// The attribute compared.
    pub attribute: String,
    /// How.
    pub op: Op,
    /// With what.
    pub operand: Operand,
}

/// One step: elements of a name (`*`: any), kept when every filter holds.
#[derive(Debug, Clone, PartialEq)]
pub struct Step {
    /// The element name, `None` for `*`.
    pub name: Option<String>,
    /// The filters, all of which must hold.
    pub filters: Vec<Filter>,
}

/// A parsed path.
#[derive(Debug, Clone, PartialEq)]
pub struct Query {
    /// The steps from the root's children down.
    pub steps: Vec<Step>,
    /// How many `?` the path holds.
    pub arguments: usize,
}

impl Query {
    /// Parses a path such as `/UserData/Template@id=?/`.
    ///
    /// # Errors
    /// [`QueryError::Syntax`] with the byte where the path went wrong.
    pub fn parse(path: &str) -> Result<Query, QueryError> {
        let mut parser = Parser {
            path,
            pos: 0,
            arguments: 0,
        };
        let steps = parser.steps()?;
        Ok(Query {
            steps,
            arguments: parser.arguments,
        })
    }
}

struct Parser<'a> {
    path: &'a str,
    pos: usize,
    arguments: usize,
}

impl Parser<'_> {
    fn error(&self, expected: &'static str) -> QueryError {
        QueryError::Syntax {
            path: self.path.to_owned(),
            at: self.pos,
            expected,
        }
    }

    fn rest(&self) -> &str {
        self.path.get(self.pos..).unwrap_or("")
    }

    fn eat(&mut self, s: &str) -> bool {
        if self.rest().starts_with(s) {
            self.pos += s.len();
            true
        } else {
            false
        }
    }

    fn steps(&mut self) -> Result<Vec<Step>, QueryError> {
        if !self.eat("/") {
            return Err(self.error("`/` at the start"));
        }
        let mut steps = Vec::new();
        while !self.rest().is_empty() {
            steps.push(self.step()?);
            if !self.eat("/") && !self.rest().is_empty() {
                return Err(self.error("`/`, `@`, `&` or the end"));
            }
        }
        if steps.is_empty() {
            return Err(self.error("an element name"));
        }
        Ok(steps)
    }

    fn step(&mut self) -> Result<Step, QueryError> {
        let name = if self.eat("*") {
            None
        } else {
            Some(
                self.word()
                    .ok_or_else(|| self.error("an element name or `*`"))?,
            )
        };
        let mut filters = Vec::new();
        if self.eat("@") {
            loop {
                filters.push(self.filter()?);
                if !self.eat("&") {
                    break;
                }
            }
        }
        Ok(Step { name, filters })
    }

    fn word(&mut self) -> Option<String> {
        let len = self
            .rest()
            .find(|c: char| !(c.is_alphanumeric() || c == '_' || c == '-' || c == '.'))
            .unwrap_or(self.rest().len());
        if len == 0 {
            return None;
        }
        let word = self.rest().get(..len)?.to_owned();
        self.pos += len;
        Some(word)
    }

    fn filter(&mut self) -> Result<Filter, QueryError> {
        let attribute = self.word().ok_or_else(|| self.error("an attribute name"))?;
        let op = [
            ("!=", Op::Ne),
            (">=", Op::Ge),
            ("<=", Op::Le),
            ("=", Op::Eq),
            (">", Op::Gt),
            ("<", Op::Lt),
        ]
        .into_iter()
        .find(|(text, _)| self.eat(text))
        .map(|(_, op)| op)
        .ok_or_else(|| self.error("`=`, `!=`, `>=`, `>`, `<=` or `<`"))?;
        let operand = if self.eat("?") {
            self.arguments += 1;
            Operand::Arg(self.arguments - 1)
        } else {
            Operand::Literal(self.literal()?)
        };
        Ok(Filter {
            attribute,
            op,
            operand,
        })
    }

    fn literal(&mut self) -> Result<Arg, QueryError> {
        for quote in ['\'', '"'] {
            if self.rest().starts_with(quote) {
                let body = self.rest().get(1..).unwrap_or("");
                let end = body
                    .find(quote)
                    .ok_or_else(|| self.error("a closing quote"))?;
                let text = body.get(..end).unwrap_or("").to_owned();
                self.pos += end + 2;
                return Ok(Arg::Str(text));
            }
        }
        let start = self.pos;
        let word = self.word().ok_or_else(|| self.error("`?` or a value"))?;
        match word.as_str() {
            "true" => return Ok(Arg::Bool(true)),
            "false" => return Ok(Arg::Bool(false)),
            _ => {}
        }
        if let Ok(int) = word.parse::<i64>() {
            return Ok(Arg::Int(int));
        }
        if let Ok(float) = word.parse::<f64>() {
            return Ok(Arg::Float(float));
        }
        self.pos = start;
        Err(self.error("`?`, a number, true, false or a quoted string"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn toolbox_paths() {
        let q = Query::parse("/StrSheet_Creature/HuntingZone@id=?/String@templateId=?").unwrap();
        assert_eq!(q.steps.len(), 3);
        assert_eq!(q.arguments, 2);
        assert_eq!(q.steps[2].filters[0].operand, Operand::Arg(1));
        let q = Query::parse("/SkillData@huntingZoneId=?/Skill@templateId=?&id=?").unwrap();
        assert_eq!(q.steps[1].filters.len(), 2);
        let q = Query::parse("/ItemData/Item@rank>=?/").unwrap();
        assert_eq!(q.steps[1].filters[0].op, Op::Ge);
        let q = Query::parse("/A/*@x!=5&y='a b'&z<2.5&w=true").unwrap();
        let f = &q.steps[1].filters;
        assert_eq!(q.steps[1].name, None);
        assert_eq!(f[0].operand, Operand::Literal(Arg::Int(5)));
        assert_eq!(f[1].operand, Operand::Literal(Arg::Str("a b".into())));
        assert_eq!(f[2].operand, Operand::Literal(Arg::Float(2.5)));
        assert_eq!(f[3].operand, Operand::Literal(Arg::Bool(true)));
        assert_eq!(q.arguments, 0);
    }

    #[test]
    fn bad_paths_say_where() {
        for (path, at) in [
            ("UserData", 0),
            ("/", 1),
            ("/A@", 3),
            ("/A@id", 5),
            ("/A@id=", 6),
            ("/A@id=?x", 7),
            ("/A@id='x", 6),
            ("/A//B", 3),
        ] {
            match Query::parse(path) {
                Err(QueryError::Syntax { at: got, .. }) => assert_eq!(got, at, "{path}"),
                other => panic!("{path}: {other:?}"),
            }
        }
    }
}
