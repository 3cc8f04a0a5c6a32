package io.jdbcrepl.dialect.postgresql;

import io.jdbcrepl.apply.ApplyValues;
import io.jdbcrepl.lcr.ValueType;

import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Types;

/** PostgreSQL holds what the others log, but not MySQL's zero dates; temporal text goes untyped. */
final class PostgresApplyValues implements ApplyValues {

    @Override
    public String refusal(Object value, ValueType dest) {
        return value instanceof String text && ValueType.isTemporal(dest) && text.startsWith("0000-00-00") ? "a MySQL zero date" : null;
    }

    @Override
    public void bind(PreparedStatement ps, int index, Object value, ValueType dest) throws SQLException {
        if (value instanceof String text && ValueType.isTemporal(dest)) {
            // kept as text (24:00:00, infinity): the server reads it as the column's type
            ps.setObject(index, text, Types.OTHER);
        } else {
            dest.bind(ps, index, value);
        }
    }
}
