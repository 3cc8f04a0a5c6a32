package io.jdbcrepl.dialect.mysql;

import io.jdbcrepl.apply.ApplyValues;
import io.jdbcrepl.lcr.TemporalText;
import io.jdbcrepl.lcr.ValueType;

import java.sql.PreparedStatement;
import java.sql.SQLException;

/**
 * The MySQL family cannot hold PostgreSQL's infinities, NaN or BC dates. Times and timestamps go as
 * text, which both connectors send with every fractional digit; so do UUIDs and JSON.
 */
final class MySqlApplyValues implements ApplyValues {

    @Override
    public String refusal(Object value, ValueType dest) {
        if (value instanceof String && ValueType.isTemporal(dest)) return null; // a zero date, kept as text
        if (value instanceof Double d && dest == ValueType.DECIMAL) return "a numeric " + d;
        if (ValueType.infinite(value)) return "an infinite date or timestamp";
        if (ValueType.yearOf(value) < 1) return "a BC date";
        return null;
    }

    @Override
    public void bind(PreparedStatement ps, int index, Object value, ValueType dest) throws SQLException {
        String temporalText = TemporalText.of(value);
        if (value instanceof String text && ValueType.isTemporal(dest)) {
            ps.setString(index, text); // kept as text (24:00:00, a zero date): the server reads it as the column's type
        } else if (temporalText != null) {
            ps.setString(index, temporalText);
        } else if (value != null && (dest == ValueType.UUID_ || dest == ValueType.JSON)) {
            ps.setString(index, value.toString());
        } else {
            dest.bind(ps, index, value);
        }
    }
}
