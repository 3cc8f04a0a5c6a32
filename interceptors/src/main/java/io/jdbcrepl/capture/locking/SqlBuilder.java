package io.jdbcrepl.capture.locking;

import io.jdbcrepl.sql.SqlFragment;

import java.util.ArrayList;
import java.util.List;

/** Builds a {@link PlannedSql}: text and parameter entries kept in step. */
public final class SqlBuilder {

    private final StringBuilder text = new StringBuilder();
    private final List<Integer> parameters = new ArrayList<>();

    public SqlBuilder sql(String s) {
        text.append(s);
        return this;
    }

    /** An application fragment as written, with its parameters. */
    public SqlBuilder fragment(SqlFragment f) {
        text.append(f.text());
        parameters.addAll(f.parameters());
        return this;
    }

    /** A {@code ?} the driver binds. */
    public SqlBuilder driverValue() {
        text.append('?');
        parameters.add(PlannedSql.DRIVER);
        return this;
    }

    public SqlBuilder append(PlannedSql other) {
        text.append(other.text());
        parameters.addAll(other.parameters());
        return this;
    }

    public int length() {
        return text.length();
    }

    public PlannedSql build() {
        return new PlannedSql(text.toString(), parameters);
    }
}
