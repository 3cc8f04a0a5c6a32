package io.jdbcrepl.it.capture;

import io.jdbcrepl.lcr.Json;
import io.jdbcrepl.lcr.RowImage;
import io.jdbcrepl.lcr.ValueType;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;

/** Reads a PostgreSQL node's {@code repl_log} with plain SQL, in position order. */
final class ChangeLogReader {

    private ChangeLogReader() {
    }

    /** Every LCR in {@code schema}'s repl_log, in position order, through a raw connection. */
    static List<LoggedLcr> read(Connection raw, String schema) throws SQLException {
        return read(raw, schema, Long.MIN_VALUE);
    }

    /** The LCRs after {@code position}, in position order. */
    static List<LoggedLcr> read(Connection raw, String schema, long position) throws SQLException {
        List<LoggedLcr> out = new ArrayList<>();
        try (Statement s = raw.createStatement();
                ResultSet rs = s.executeQuery("SELECT position, tx_id::text, source_node, command_type, schema_name,"
                        + " table_name, old_values::text, new_values::text, column_types::text, change_vector::text,"
                        + " user_name, tag FROM " + quote(schema) + ".repl_log WHERE position > " + position
                        + " ORDER BY position")) {
            while (rs.next()) {
                out.add(decode(rs));
            }
        }
        return out;
    }

    private static LoggedLcr decode(ResultSet rs) throws SQLException {
        long position = rs.getLong(1);
        String typesJson = rs.getString(9);
        Map<String, ValueType> types = RowImage.typesFromJson(typesJson);
        String oldJson = rs.getString(7);
        String newJson = rs.getString(8);
        RowImage oldValues = oldJson == null ? null : RowImage.fromJson(oldJson, types);
        RowImage newValues = newJson == null ? null : RowImage.fromJson(newJson, types);
        List<String> changeVector = new ArrayList<>();
        String cv = rs.getString(10);
        if (cv != null) {
            Object parsed = Json.read(cv);
            assertThat(parsed).as("change_vector of LCR #%d is a JSON array: %s", position, cv).isInstanceOf(List.class);
            for (Object o : (List<?>) parsed) changeVector.add(String.valueOf(o));
        }
        Set<String> logged = new LinkedHashSet<>();
        if (oldValues != null) logged.addAll(oldValues.asMap().keySet());
        if (newValues != null) logged.addAll(newValues.asMap().keySet());
        assertThat(types.keySet()).as("column_types of LCR #%d names exactly the logged columns (old %s, new %s)",
                position, oldJson, newJson).isEqualTo(logged);
        return new LoggedLcr(position, rs.getString(2), rs.getString(3), rs.getString(4), rs.getString(5),
                rs.getString(6), oldValues, newValues, List.copyOf(changeVector), types, rs.getString(11),
                rs.getBytes(12));
    }

    static String quote(String identifier) {
        return '"' + identifier.replace("\"", "\"\"") + '"';
    }
}
