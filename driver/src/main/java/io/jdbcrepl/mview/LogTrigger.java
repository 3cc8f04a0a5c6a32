package io.jdbcrepl.mview;

import io.jdbcrepl.capture.ColumnInfo;
import io.jdbcrepl.capture.TableInfo;
import io.jdbcrepl.dialect.Dialect;
import io.jdbcrepl.mview.MviewCommand.Name;

import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.function.BiFunction;
import java.util.stream.Collectors;

/**
 * What a database's row triggers on a log's master ({@link MviewSql#createTriggers}) write, named
 * and quoted for its SQL: the log table, the master, and the log rows of each change as
 * {@link LogTables} describes them, for triggers written in SQL ({@code OLD} and {@code NEW} rows).
 */
public final class LogTrigger {

    private final Dialect dialect;
    private final LogDefinition log;
    private final TableInfo master;

    /** {@code master}: the master's definition, or null to drop the triggers (which needs only names). */
    LogTrigger(Dialect dialect, LogDefinition log, TableInfo master) {
        this.dialect = dialect;
        this.log = log;
        this.master = master;
    }

    /** The log table, unquoted. */
    public String logTable() {
        return log.logTable();
    }

    public boolean newValues() {
        return log.newValues();
    }

    /** The log table, quoted and qualified. */
    public String table() {
        return name("");
    }

    /** The master, quoted and qualified. */
    public String master() {
        return Sql.quote(dialect, log.master());
    }

    /** An object of the master's schema named for the log table ({@code MLOG$_T$ins}), quoted and qualified. */
    public String name(String suffix) {
        return Sql.quote(dialect, new Name(log.master().schema(), log.logTable() + suffix));
    }

    /** The same, unqualified (an object of the master: PostgreSQL's trigger). */
    public String localName(String suffix) {
        return q(log.logTable() + suffix);
    }

    /** The master's primary key columns, quoted (none without one). */
    public List<String> key() {
        return master.key().stream().map(this::q).toList();
    }

    /** {@code INSERT INTO log (…) VALUES (…)} for one image: {@code row} is OLD or NEW, {@code vector} an expression. */
    public String insert(String row, String dml, String oldNew, String vector) {
        List<String> names = new ArrayList<>();
        List<String> values = new ArrayList<>();
        for (String c : log.columns()) {
            names.add(q(c));
            values.add(row + "." + q(c));
        }
        if (log.rowid()) {
            names.add(col("M_ROW$$"));
            values.add("CONCAT_WS(','" + master.key().stream().map(k -> ", " + row + "." + q(k)).collect(Collectors.joining()) + ")");
        }
        names.add(col("DMLTYPE$$"));
        values.add("'" + dml + "'");
        names.add(col("OLD_NEW$$"));
        values.add("'" + oldNew + "'");
        names.add(col("CHANGE_VECTOR$$"));
        values.add(vector);
        return "INSERT INTO " + table() + " (" + String.join(", ", names) + ") VALUES (" + String.join(", ", values) + ")";
    }

    /** The statements an UPDATE runs when the key did not change; {@code changed}: the changed columns' bits. */
    public List<String> updateRows(String changed) {
        if (!log.newValues()) return List.of(insert("OLD", "U", "U", changed));
        return List.of(insert("OLD", "U", "O", changed), insert("NEW", "U", "N", changed));
    }

    /** The statements an UPDATE runs when the key changed: a delete and an insert; {@code all}: every column's bit. */
    public List<String> keyChangeRows(String all) {
        return List.of(insert("OLD", "D", "O", all), insert("NEW", "I", "N", all));
    }

    /** CHANGE_VECTOR$$ with every column's bit set, in hexadecimal. */
    public String allColumnsHex() {
        return HexFormat.of().formatHex(allColumns(master.columns().size()));
    }

    /**
     * Per byte of CHANGE_VECTOR$$, the expression of its changed bits: {@code bit} of each column of
     * the byte (its quoted name, its mask) joined by {@code |}, or {@code 0}.
     */
    public List<String> changedBytes(BiFunction<String, Integer, String> bit) {
        List<ColumnInfo> cols = master.columns();
        int bytes = cols.size() / 8 + 1;
        List<String> out = new ArrayList<>();
        for (int b = 0; b < bytes; b++) {
            List<String> bits = new ArrayList<>();
            for (int i = 0; i < cols.size(); i++) {
                int position = i + 1;
                if (position / 8 != b) continue;
                bits.add(bit.apply(q(cols.get(i).name()), 1 << (position % 8)));
            }
            out.add(bits.isEmpty() ? "0" : String.join(" | ", bits));
        }
        return out;
    }

    /** CHANGE_VECTOR$$ with every column's bit set (Oracle's layout: bit n % 8 of byte n / 8, n from 1). */
    public static byte[] allColumns(int columns) {
        byte[] v = new byte[columns / 8 + 1];
        for (int n = 1; n <= columns; n++) v[n / 8] |= (byte) (1 << (n % 8));
        return v;
    }

    private String q(String name) {
        return Sql.quote(dialect, name);
    }

    private String col(String upper) {
        return q(Sql.column(dialect, upper));
    }
}
