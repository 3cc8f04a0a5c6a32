package io.jdbcrepl.sql;

import io.jdbcrepl.dialect.Dialect;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** Shortcuts for the analysis tests. */
final class Analyses {

    private Analyses() {
    }

    static Dml dml(String sql, Dialect dialect) {
        Analysis a = SqlClassifier.analyze(sql, dialect);
        assertThat(a).as("%s on %s", sql, dialect).isInstanceOf(Dml.class);
        return (Dml) a;
    }

    /** The statement's refusal; for a WITH statement that changes rows, where it is not captured. */
    static Opaque opaque(String sql, Dialect dialect) {
        Analysis a = SqlClassifier.analyze(sql, dialect);
        if (a instanceof WithDml with) return with.refusal();
        assertThat(a).as("%s on %s", sql, dialect).isInstanceOf(Opaque.class);
        return (Opaque) a;
    }

    static WithDml withDml(String sql, Dialect dialect) {
        Analysis a = SqlClassifier.analyze(sql, dialect);
        assertThat(a).as("%s on %s", sql, dialect).isInstanceOf(WithDml.class);
        return (WithDml) a;
    }

    static SqlFragment fragment(String text, Integer... parameters) {
        return new SqlFragment(text, List.of(parameters));
    }

    static ColumnRef column(String name) {
        return new ColumnRef(name, false);
    }

    static ColumnRef quoted(String name) {
        return new ColumnRef(name, true);
    }
}
