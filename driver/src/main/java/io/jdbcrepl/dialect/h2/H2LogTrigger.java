package io.jdbcrepl.dialect.h2;

import io.jdbcrepl.mview.LogTrigger;
import org.h2.api.Trigger;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * H2's row trigger for a materialized view log (H2 runs Java triggers only): the same rows as the
 * PostgreSQL and MariaDB triggers ({@link LogTrigger}). Its name carries the log table and whether
 * the log has new values; the columns are read from the log table when H2 loads the trigger.
 * Only H2 loads this class (by name, {@link H2MviewSql#TRIGGER_CLASS}): it implements H2's
 * interface, which other vendors' applications do not have.
 */
public final class H2LogTrigger implements Trigger {

    private boolean newValues;
    /** Per log column copied from the master: its index in the master's row. */
    private int[] copied;
    private int[] key;
    private boolean rowid;
    private int masterColumns;
    private String insert;

    @Override
    public void init(Connection conn, String schemaName, String triggerName, String tableName, boolean before, int type)
            throws SQLException {
        newValues = H2MviewSql.hasNewValues(triggerName);
        String logTable = triggerName.substring(0, triggerName.length() - H2MviewSql.triggerSuffix(newValues).length());
        List<String> master = columns(conn, schemaName, tableName);
        masterColumns = master.size();
        List<String> keyColumns = new ArrayList<>();
        try (ResultSet rs = conn.getMetaData().getPrimaryKeys(null, schemaName, tableName)) {
            List<Object[]> pk = new ArrayList<>();
            while (rs.next()) pk.add(new Object[] {rs.getShort("KEY_SEQ"), rs.getString("COLUMN_NAME")});
            pk.sort((a, b) -> Short.compare((Short) a[0], (Short) b[0]));
            for (Object[] p : pk) keyColumns.add((String) p[1]);
        }
        key = keyColumns.stream().mapToInt(master::indexOf).toArray();
        List<String> names = new ArrayList<>();
        List<Integer> indexes = new ArrayList<>();
        for (String c : columns(conn, schemaName, logTable)) {
            if (c.endsWith("$$")) {
                rowid |= c.equals("M_ROW$$");
                continue;
            }
            names.add("\"" + c + "\"");
            indexes.add(master.indexOf(c));
        }
        copied = indexes.stream().mapToInt(Integer::intValue).toArray();
        if (rowid) names.add("\"M_ROW$$\"");
        names.add("\"DMLTYPE$$\"");
        names.add("\"OLD_NEW$$\"");
        names.add("\"CHANGE_VECTOR$$\"");
        insert = "INSERT INTO \"" + schemaName + "\".\"" + logTable + "\" (" + String.join(", ", names) + ") VALUES ("
                + String.join(", ", java.util.Collections.nCopies(names.size(), "?")) + ")";
    }

    private static List<String> columns(Connection conn, String schema, String table) throws SQLException {
        List<String> out = new ArrayList<>();
        try (PreparedStatement ps = conn.prepareStatement("SELECT COLUMN_NAME FROM INFORMATION_SCHEMA.COLUMNS"
                + " WHERE TABLE_SCHEMA = ? AND TABLE_NAME = ? ORDER BY ORDINAL_POSITION")) {
            ps.setString(1, schema);
            ps.setString(2, table);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) out.add(rs.getString(1));
            }
        }
        return out;
    }

    @Override
    public void fire(Connection conn, Object[] oldRow, Object[] newRow) throws SQLException {
        try (PreparedStatement ps = conn.prepareStatement(insert)) {
            if (oldRow == null) {
                write(ps, newRow, "I", "N", LogTrigger.allColumns(masterColumns));
            } else if (newRow == null) {
                write(ps, oldRow, "D", "O", LogTrigger.allColumns(masterColumns));
            } else if (keyChanged(oldRow, newRow)) {
                write(ps, oldRow, "D", "O", LogTrigger.allColumns(masterColumns));
                write(ps, newRow, "I", "N", LogTrigger.allColumns(masterColumns));
            } else {
                byte[] vector = new byte[masterColumns / 8 + 1];
                for (int i = 0; i < masterColumns; i++) {
                    int n = i + 1;
                    if (!Objects.deepEquals(oldRow[i], newRow[i])) vector[n / 8] |= (byte) (1 << (n % 8));
                }
                write(ps, oldRow, "U", newValues ? "O" : "U", vector);
                if (newValues) write(ps, newRow, "U", "N", vector);
            }
        }
    }

    private boolean keyChanged(Object[] oldRow, Object[] newRow) {
        for (int k : key) {
            if (!Objects.deepEquals(oldRow[k], newRow[k])) return true;
        }
        return false;
    }

    private void write(PreparedStatement ps, Object[] row, String dml, String oldNew, byte[] vector) throws SQLException {
        int p = 0;
        for (int index : copied) ps.setObject(++p, row[index]);
        if (rowid) {
            StringBuilder id = new StringBuilder();
            for (int k : key) {
                if (!id.isEmpty()) id.append(',');
                id.append(row[k]);
            }
            ps.setString(++p, id.toString());
        }
        ps.setString(++p, dml);
        ps.setString(++p, oldNew);
        ps.setBytes(++p, vector);
        ps.executeUpdate();
    }
}
