package io.jdbcrepl.it.support;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Where a node's driver tables are with the default {@code repl.schema} (SPEC 2): schema
 * {@code repl} on PostgreSQL and H2, database {@code <database>_repl} on MariaDB. Tests read
 * {@code repl_log}, {@code repl_error}, ... through raw connections with these names.
 */
public final class DriverTables {

    /** The driver's own tables (the MV catalog included), longest first so that a prefix never wins. */
    private static final Pattern NAMES = Pattern.compile("(?<![\\w.`\"$])(repl_error_lcr|repl_error|repl_conflict"
            + "|repl_progress|repl_join|repl_subscriber|repl_log|repl_tx|repl_epoch|repl_apply_lock|repl_version|repl_keys|repl_ddl|repl_mview_log|repl_mview)\\b",
            Pattern.CASE_INSENSITIVE);

    private DriverTables() {
    }

    /** The default driver schema of a database: {@code repl}, or {@code <database>_repl} on MariaDB. */
    public static String schema(Vendor vendor, String database) {
        return vendor.isMariaDbServer() ? database + "_repl" : "repl";
    }

    /** The default driver schema of the database {@code raw} is connected to. */
    public static String schema(Connection raw) throws SQLException {
        String product = raw.getMetaData().getDatabaseProductName().toLowerCase(Locale.ROOT);
        return product.contains("mariadb") || product.contains("mysql") ? raw.getCatalog() + "_repl" : "repl";
    }

    /** A driver table's name qualified with the default driver schema of {@code raw}'s database. */
    public static String table(Connection raw, String name) throws SQLException {
        return schema(raw) + "." + name;
    }

    /** {@code sql} with every driver table it names qualified with the default driver schema of {@code raw}'s database. */
    public static String qualify(Connection raw, String sql) throws SQLException {
        return qualify(schema(raw), sql);
    }

    /** {@code sql} with every driver table it names (unqualified) qualified with {@code schema}. */
    public static String qualify(String schema, String sql) {
        return NAMES.matcher(sql).replaceAll(Matcher.quoteReplacement(schema) + ".$1");
    }
}
