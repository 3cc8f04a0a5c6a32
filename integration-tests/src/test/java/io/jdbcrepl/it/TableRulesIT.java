package io.jdbcrepl.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import io.jdbcrepl.it.support.ForEachVendor;
import io.jdbcrepl.it.support.TestDatabase;
import io.jdbcrepl.it.support.TestDatabases;
import io.jdbcrepl.it.support.Vendor;

import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * SPEC 5.3 (and 3.3): the keys that name a table's columns are checked against the table's
 * metadata. A table that exists at connect: {@code connect} fails with SQLState 22023 naming the
 * key, the handler, the column and the table (DELTA on a non-numeric column, a MAXIMUM resolution
 * column that cannot be compared, a column the table lacks in a handler's list, its resolution,
 * {@code repl.key}, {@code repl.loggroup}, {@code repl.nocompare}, {@code repl.timestamp}). A table
 * created after connect: at its first use, the same error.
 */
class TableRulesIT {

    @RegisterExtension
    static final TestDatabases DATABASES = TestDatabases.perClass();

    private static String lob(Vendor v) {
        return switch (v.server()) {
            case POSTGRESQL -> "json";
            case MARIADB -> "LONGTEXT";
            case NONE -> "CLOB";
        };
    }

    private static String timestamp(Vendor v) {
        return v.isMariaDbServer() ? "DATETIME(6)" : "TIMESTAMP(6)";
    }

    private static TestDatabase db(Vendor vendor) throws SQLException {
        TestDatabase db = DATABASES.shared(vendor, "table_rules");
        try (Connection c = db.openRaw(); Statement s = c.createStatement()) {
            s.execute("CREATE TABLE IF NOT EXISTS acct (id INT PRIMARY KEY, name VARCHAR(20), balance DECIMAL(10,2),"
                    + " doc " + lob(vendor) + ", at " + timestamp(vendor) + ")");
        }
        return db;
    }

    private static Map<String, String> handler(String table, String type, String columns, String resolution) {
        Map<String, String> p = new LinkedHashMap<>();
        p.put("repl.node", "n1");
        p.put("repl.handler.h.table", table);
        p.put("repl.handler.h.type", type);
        p.put("repl.handler.h.columns", columns);
        if (resolution != null) p.put("repl.handler.h.resolution", resolution);
        return p;
    }

    private static Map<String, String> node(String key, String value) {
        return Map.of("repl.node", "n1", key, value);
    }

    /** Connect with {@code repl} fails with 22023, the message naming each of {@code named} (case aside). */
    private static void refused(TestDatabase db, Map<String, String> repl, String... named) {
        SQLException e = catchThrowableOfType(() -> db.openRepl(repl).close(), SQLException.class);
        assertThat((Object) e).as("connect with %s", repl).isNotNull();
        assertThat(e.getSQLState()).as("SQLState of %s", e.getMessage()).isEqualTo("22023");
        for (String n : named) assertThat(e.getMessage()).as("the error of %s", repl).containsIgnoringCase(n);
    }

    @ForEachVendor
    void deltaOnANonNumericColumnFailsConnect(Vendor vendor) throws Exception {
        TestDatabase db = db(vendor);
        refused(db, handler("acct", "DELTA", "balance,name", null), "handler h", "repl.handler.h", "name", "acct", "DELTA");
        refused(db, handler("acct", "DELTA", "*", null), "handler h", "name", "acct", "DELTA");
        db.openRepl(handler("acct", "DELTA", "balance", null)).close(); // a numeric column is fine
    }

    @ForEachVendor
    void aResolutionColumnThatCannotBeComparedFailsConnect(Vendor vendor) throws Exception {
        TestDatabase db = db(vendor);
        refused(db, handler("acct", "MAXIMUM", "doc,balance", "doc"), "repl.handler.h.resolution", "doc", "acct");
        refused(db, handler("acct", "MINIMUM", "*", "doc"), "repl.handler.h.resolution", "doc", "acct");
        db.openRepl(handler("acct", "MAXIMUM", "doc,balance,at", "at")).close();
    }

    @ForEachVendor
    void columnsTheTableLacksFailConnect(Vendor vendor) throws Exception {
        TestDatabase db = db(vendor);
        refused(db, handler("acct", "OVERWRITE", "name,nope", null), "repl.handler.h.columns", "nope", "acct");
        refused(db, handler("acct", "MAXIMUM", "*", "nope"), "repl.handler.h.resolution", "nope", "acct");
        refused(db, node("repl.key.acct", "name,nope"), "repl.key.acct", "nope", "acct");
        refused(db, node("repl.loggroup.acct.g", "name,nope"), "repl.loggroup.acct.g", "nope", "acct");
        refused(db, node("repl.nocompare.acct", "nope"), "repl.nocompare.acct", "nope", "acct");
        refused(db, node("repl.timestamp.acct", "nope"), "repl.timestamp.acct", "nope", "acct");
    }

    @ForEachVendor
    void aTableCreatedAfterConnectIsCheckedAtItsFirstUse(Vendor vendor) throws Exception {
        TestDatabase db = db(vendor);
        try (Connection raw = db.openRaw(); Statement s = raw.createStatement()) {
            s.execute("DROP TABLE IF EXISTS later");
        }
        try (Connection c = db.openRepl(handler("later", "DELTA", "label", null)); Statement s = c.createStatement()) {
            try (Connection raw = db.openRaw(); Statement r = raw.createStatement()) {
                r.execute("CREATE TABLE later (id INT PRIMARY KEY, label VARCHAR(20))");
            }
            SQLException e = catchThrowableOfType(() -> s.executeUpdate("INSERT INTO later VALUES (1, 'a')"),
                    SQLException.class);
            assertThat((Object) e).as("the first statement on the new table").isNotNull();
            assertThat(e.getSQLState()).isEqualTo("22023");
            for (String n : List.of("handler h", "label", "later", "DELTA")) assertThat(e.getMessage()).containsIgnoringCase(n);
        }
        try (Connection raw = db.openRaw(); Statement s = raw.createStatement();
                java.sql.ResultSet rs = s.executeQuery("SELECT count(*) FROM later")) {
            rs.next();
            assertThat(rs.getInt(1)).as("nothing ran").isZero();
        }
    }
}
