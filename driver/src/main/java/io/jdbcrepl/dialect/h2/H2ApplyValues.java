package io.jdbcrepl.dialect.h2;

import io.jdbcrepl.apply.ApplyValues;
import io.jdbcrepl.lcr.ValueType;

import java.nio.charset.StandardCharsets;
import java.sql.PreparedStatement;
import java.sql.SQLException;

/** H2 holds what the others log, but not MySQL's zero dates; it parses JSON given as bytes. */
final class H2ApplyValues implements ApplyValues {

    @Override
    public String refusal(Object value, ValueType dest) {
        return value instanceof String text && ValueType.isTemporal(dest) && text.startsWith("0000-00-00") ? "a MySQL zero date" : null;
    }

    @Override
    public void bind(PreparedStatement ps, int index, Object value, ValueType dest) throws SQLException {
        if (value instanceof String text && ValueType.isTemporal(dest)) {
            ps.setString(index, text); // kept as text (24:00:00): the server reads it as the column's type
        } else if (value != null && dest == ValueType.JSON) {
            ps.setBytes(index, value.toString().getBytes(StandardCharsets.UTF_8)); // H2 parses bytes as JSON text
        } else {
            dest.bind(ps, index, value);
        }
    }
}
