"""The portable SQL as PostgreSQL reads it: only placeholders and types change, never
what is inside strings, quoted names or comments."""

from __future__ import annotations

import pytest

from carca_bot.store.postgres_sql import IDENTITY, to_postgres


def test_question_marks_are_numbered() -> None:
    done = to_postgres("UPDATE games SET version = version + ?, updated_at = ? WHERE id = ?")
    assert done.sql == "UPDATE games SET version = version + $1, updated_at = $2 WHERE id = $3"
    assert (done.names, done.count) == (None, 3)


def test_names_get_one_number_each() -> None:
    done = to_postgres("SELECT :user, :guild WHERE a = :user AND b::text = 'x'")
    assert done.sql == "SELECT $1, $2 WHERE a = $1 AND b::text = 'x'"
    assert (done.names, done.count) == (("user", "guild"), 2)


def test_strings_names_and_comments_are_left_alone() -> None:
    sql = ("SELECT 'is it? :no' AS \"what?\", \"end\" -- REAL? :x\n"
           "FROM t /* INTEGER ? */ WHERE s = 'it''s ?' AND n = ?")
    done = to_postgres(sql)
    assert done.sql == sql.replace("n = ?", "n = $1")
    assert done.count == 1


def test_types_become_postgres_types() -> None:
    done = to_postgres("CREATE TABLE t (id INTEGER PRIMARY KEY AUTOINCREMENT, n integer, "
                       "x REAL NOT NULL, s TEXT, real_name TEXT, integers TEXT)")
    assert done.sql == (f"CREATE TABLE t (id {IDENTITY}, n BIGINT, x DOUBLE PRECISION NOT NULL, "
                        "s TEXT, real_name TEXT, integers TEXT)")
    assert to_postgres("CREATE TABLE u (id INTEGER  PRIMARY KEY, v INTEGER)").sql == (
        f"CREATE TABLE u (id {IDENTITY}, v BIGINT)")


def test_mixing_placeholders_is_refused() -> None:
    with pytest.raises(ValueError, match="mixes"):
        to_postgres("SELECT ? WHERE a = :a")
