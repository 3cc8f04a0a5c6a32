package io.jdbcrepl.it;

import io.jdbcrepl.it.support.ForEachVendor;
import io.jdbcrepl.it.support.Identities;
import io.jdbcrepl.it.support.RawVsRepl;
import io.jdbcrepl.it.support.Rows;
import io.jdbcrepl.it.support.TestDatabase;
import io.jdbcrepl.it.support.TestDatabases;
import io.jdbcrepl.it.support.Trace;
import io.jdbcrepl.it.support.Vendor;
import org.assertj.core.api.SoftAssertions;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.sql.CallableStatement;
import java.sql.Connection;
import java.sql.DatabaseMetaData;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.Savepoint;
import java.sql.Statement;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The connection-level half of the pass-through contract (see {@link TransparencyIT}): metadata,
 * transactions, wrappers, identities, warnings and closed state are the same through
 * {@code jdbc:repl:} as through the vendor's driver; plus what only the proxy has (it is a proxy,
 * and its toString names what it wraps).
 */
class ConnectionTransparencyIT {

    @RegisterExtension
    static final TestDatabases DATABASES = TestDatabases.perClass();

    // ------------------------------------------------------------------ metadata

    @ForEachVendor
    void metadata(Vendor vendor) throws Exception {
        assertSameThroughRepl(vendor, (c, t, v) -> {
            DatabaseMetaData md = c.getMetaData();
            String table = md.storesUpperCaseIdentifiers() ? "ITEM" : "item";
            String catalog = c.getCatalog();
            String schema = c.getSchema();
            t.note("catalog", catalog);
            t.note("schema", schema);
            t.value("getTables", () -> Rows.of(md.getTables(catalog, schema, "%", new String[] {"TABLE"})));
            t.value("getColumns", () -> Rows.of(md.getColumns(catalog, schema, table, "%")));
            t.value("getPrimaryKeys", () -> Rows.of(md.getPrimaryKeys(catalog, schema, table)));
            t.value("getIndexInfo", () -> Rows.of(md.getIndexInfo(catalog, schema, table, true, false)));
            t.value("product", () -> md.getDatabaseProductName() + " " + md.getDatabaseProductVersion());
            t.value("driver", () -> md.getDriverName() + " " + md.getDriverVersion());
            t.value("user", md::getUserName);
            t.value("default isolation", md::getDefaultTransactionIsolation);
            t.value("supportsBatchUpdates", md::supportsBatchUpdates);
            t.value("supportsGetGeneratedKeys", md::supportsGetGeneratedKeys);
            t.value("supportsSavepoints", md::supportsSavepoints);
            t.value("supports scroll insensitive", () -> md.supportsResultSetType(ResultSet.TYPE_SCROLL_INSENSITIVE));
            t.value("JDBC version", () -> md.getJDBCMajorVersion() + "." + md.getJDBCMinorVersion());
            t.value("identifier quote", md::getIdentifierQuoteString);
        });
    }

    // ------------------------------------------------------------------ transactions

    @ForEachVendor
    void savepoints(Vendor vendor) throws Exception {
        assertSameThroughRepl(vendor, (c, t, v) -> {
            t.step("autocommit off", () -> c.setAutoCommit(false));
            try (Statement s = c.createStatement()) {
                t.value("insert a", () -> s.executeUpdate("INSERT INTO item (name, qty) VALUES ('a', 1)"));
                Savepoint named = t.value("named savepoint", () -> c.setSavepoint("before_b"));
                t.value("its name", named::getSavepointName);
                t.outcome("id of a named savepoint", named::getSavepointId);
                t.value("insert b", () -> s.executeUpdate("INSERT INTO item (name, qty) VALUES ('b', 2)"));
                t.step("rollback to it", () -> c.rollback(named));
                t.value("insert c", () -> s.executeUpdate("INSERT INTO item (name, qty) VALUES ('c', 3)"));
                Savepoint unnamed = t.value("unnamed savepoint", c::setSavepoint);
                t.outcome("its id", unnamed::getSavepointId);
                // MySQL Connector/J names it with a random UUID: compare only whether there is a name
                t.outcome("name of an unnamed savepoint", () -> unnamed.getSavepointName() == null ? "null" : "a name");
                t.value("insert d", () -> s.executeUpdate("INSERT INTO item (name, qty) VALUES ('d', 4)"));
                t.step("release it", () -> c.releaseSavepoint(unnamed));
                t.step("commit", c::commit);
                t.value("insert e", () -> s.executeUpdate("INSERT INTO item (name, qty) VALUES ('e', 5)"));
                t.step("rollback", c::rollback);
                t.step("autocommit on", () -> c.setAutoCommit(true));
                t.value("rows", () -> Rows.of(s.executeQuery("SELECT name FROM item ORDER BY name")));
                t.outcome("setSavepoint in autocommit", () -> c.setSavepoint() != null);
            }
        });
    }

    @ForEachVendor
    void isolationLevels(Vendor vendor) throws Exception {
        assertSameThroughRepl(vendor, (c, t, v) -> {
            t.value("initial level", c::getTransactionIsolation);
            int[] levels = {Connection.TRANSACTION_READ_UNCOMMITTED, Connection.TRANSACTION_READ_COMMITTED,
                    Connection.TRANSACTION_REPEATABLE_READ, Connection.TRANSACTION_SERIALIZABLE,
                    Connection.TRANSACTION_NONE};
            for (int level : levels) {
                t.outcomeOf("set " + level, () -> c.setTransactionIsolation(level));
                t.value("get after set " + level, c::getTransactionIsolation);
            }
            t.step("set read committed", () -> c.setTransactionIsolation(Connection.TRANSACTION_READ_COMMITTED));
            t.outcomeOf("read only", () -> c.setReadOnly(true));
            t.value("isReadOnly", c::isReadOnly);
            t.outcomeOf("read write", () -> c.setReadOnly(false));
            t.value("holdability", c::getHoldability);
            t.outcomeOf("set holdability", () -> c.setHoldability(ResultSet.CLOSE_CURSORS_AT_COMMIT));
            t.value("holdability after", c::getHoldability);
            t.value("autocommit", c::getAutoCommit);
        });
    }

    // ------------------------------------------------------------------ identity and wrappers

    @ForEachVendor
    void unwrapReachesTheVendorObjects(Vendor vendor) throws Exception {
        Class<?> vendorConnection = VendorSql.vendorConnectionType(vendor);
        Class<?> vendorStatement = VendorSql.vendorStatementType(vendor);
        assertSameThroughRepl(vendor, (c, t, v) -> {
            t.value("isWrapperFor vendor connection", () -> c.isWrapperFor(vendorConnection));
            t.value("unwrap vendor connection", () -> c.unwrap(vendorConnection).getClass().getName());
            t.value("vendor call through unwrap", () -> vendorCall(v, c));
            t.value("isWrapperFor Connection", () -> c.isWrapperFor(Connection.class));
            t.value("unwrap(Connection) is the connection", () -> c.unwrap(Connection.class) == c);
            t.value("isWrapperFor String", () -> c.isWrapperFor(String.class));
            t.failure("unwrap String", () -> c.unwrap(String.class));
            try (Statement s = c.createStatement()) {
                t.value("statement isWrapperFor vendor statement", () -> s.isWrapperFor(vendorStatement));
                t.value("statement unwrap", () -> s.unwrap(vendorStatement).getClass().getName());
                t.value("statement unwrap(Statement) is the statement", () -> s.unwrap(Statement.class) == s);
            }
            DatabaseMetaData md = c.getMetaData();
            t.value("metadata unwrap(DatabaseMetaData) is a DatabaseMetaData",
                    () -> md.unwrap(DatabaseMetaData.class) instanceof DatabaseMetaData);
        });
    }

    @ForEachVendor
    void objectsLeadBackToTheProxies(Vendor vendor) throws Exception {
        assertSameThroughRepl(vendor, (c, t, v) -> {
            VendorSql.insertItems(c, 2);
            try (Statement s = c.createStatement()) {
                t.value("statement.getConnection()", () -> Identities.whichConnection(s.getConnection(), c));
                try (ResultSet rs = s.executeQuery("SELECT name FROM item")) {
                    t.value("resultSet.getStatement()", () -> Identities.whichStatement(rs.getStatement(), s));
                }
                t.value("execute", () -> s.execute("SELECT name FROM item"));
                t.value("getResultSet twice gives the same object", () -> s.getResultSet() == s.getResultSet());
                t.value("its statement", () -> Identities.whichStatement(s.getResultSet().getStatement(), s));
            }
            try (PreparedStatement ps = c.prepareStatement("SELECT name FROM item WHERE qty > ?")) {
                t.value("prepared.getConnection()", () -> Identities.whichConnection(ps.getConnection(), c));
                ps.setInt(1, 0);
                try (ResultSet rs = ps.executeQuery()) {
                    t.value("its resultSet.getStatement()", () -> Identities.whichStatement(rs.getStatement(), ps));
                }
            }
            String call = v == Vendor.H2 ? "{call add_ints(?, ?)}" : "{? = call add_one(?)}";
            try (CallableStatement cs = c.prepareCall(call)) {
                t.value("callable.getConnection()", () -> Identities.whichConnection(cs.getConnection(), c));
            }
            DatabaseMetaData md = c.getMetaData();
            t.value("metaData.getConnection()", () -> Identities.whichConnection(md.getConnection(), c));
            try (ResultSet tables = md.getTables(c.getCatalog(), c.getSchema(), "%", null)) {
                t.value("metadata result set's statement's connection", () -> {
                    Statement s = tables.getStatement();
                    return s == null ? "no statement" : Identities.whichConnection(s.getConnection(), c);
                });
            }
        });
    }

    @ForEachVendor
    void warnings(Vendor vendor) throws Exception {
        Trace raw = assertSameThroughRepl(vendor, (c, t, v) -> {
            try (Statement s = c.createStatement()) {
                int i = 0;
                for (String sql : VendorSql.warningStatements(v)) {
                    int n = ++i;
                    t.value("statement " + n, () -> {
                        boolean hasResult = s.execute(sql);
                        if (hasResult) Rows.of(s.getResultSet());
                        return hasResult;
                    });
                    t.value("statement warnings " + n, s::getWarnings);
                    if (v.isMariaDbServer()) {
                        t.value("SHOW WARNINGS " + n, () -> Rows.of(s.executeQuery("SHOW WARNINGS")));
                    }
                }
                t.step("clearWarnings", s::clearWarnings);
                t.value("statement warnings after clear", s::getWarnings);
            }
            t.value("connection warnings", c::getWarnings);
            t.step("clear connection warnings", c::clearWarnings);
            t.value("connection warnings after clear", c::getWarnings);
        });
        if (vendor == Vendor.POSTGRESQL) {
            assertThat(raw.text()).as("the reference run saw the NOTICE").contains("notice from a DO block");
        }
        if (vendor.isMariaDbServer()) {
            assertThat(raw.text()).as("the reference run saw the server's warning").contains("Truncated incorrect");
        }
    }

    @ForEachVendor
    void closedState(Vendor vendor) throws Exception {
        assertSameThroughRepl(vendor, (c, t, v) -> {
            VendorSql.insertItems(c, 2);
            Statement s = c.createStatement();
            ResultSet rs = s.executeQuery("SELECT name FROM item ORDER BY name");
            t.value("statement isClosed", s::isClosed);
            t.step("close statement", s::close);
            t.value("statement isClosed after close", s::isClosed);
            t.value("its result set isClosed", rs::isClosed);
            t.outcome("result set next() after statement close", rs::next);
            t.failure("executeQuery on closed statement", () -> s.executeQuery("SELECT 1"));
            t.failure("executeUpdate on closed statement", () -> s.executeUpdate("DELETE FROM item"));
            t.outcome("getConnection on closed statement", () -> Identities.whichConnection(s.getConnection(), c));
            t.step("close statement again", s::close);

            PreparedStatement ps = c.prepareStatement("SELECT name FROM item WHERE qty > ?");
            t.step("close prepared", ps::close);
            t.outcomeOf("setInt on closed prepared", () -> ps.setInt(1, 1));
            t.failure("executeQuery on closed prepared", ps::executeQuery);

            Statement open = c.createStatement();
            t.value("isValid", () -> c.isValid(5));
            t.step("close connection", c::close);
            t.value("connection isClosed", c::isClosed);
            t.value("isValid after close", () -> c.isValid(5));
            t.value("statement closed with its connection", open::isClosed);
            t.outcome("createStatement on closed connection", () -> c.createStatement() != null);
            t.failure("prepareStatement on closed connection", () -> c.prepareStatement("SELECT 1"));
            t.outcomeOf("commit on closed connection", c::commit);
            t.outcomeOf("setAutoCommit on closed connection", () -> c.setAutoCommit(false));
            t.step("close connection again", c::close);
        });
    }

    // ------------------------------------------------------------------ repl-only facts

    @ForEachVendor
    void replConnectionIsAProxyAroundTheVendorConnection(Vendor vendor) throws Exception {
        TestDatabase db = DATABASES.shared(vendor, "connection_transparency");
        Class<?> vendorConnection = VendorSql.vendorConnectionType(vendor);
        try (Connection raw = db.openRaw(); Connection repl = db.openRepl()) {
            assertThat(repl.getClass()).as("the jdbc:repl: connection is the driver's proxy")
                    .isNotEqualTo(raw.getClass());
            assertThat(repl.getClass().getName()).startsWith("io.jdbcrepl.");
            Object inner = repl.unwrap(vendorConnection);
            assertThat(inner).isNotSameAs(repl).isInstanceOf(raw.getClass());
        }
    }

    @ForEachVendor
    void toStringMentionsTheWrappedClass(Vendor vendor) throws Exception {
        TestDatabase db = DATABASES.shared(vendor, "connection_transparency");
        try (Connection raw = db.openRaw(); Statement rawStatement = raw.createStatement();
                PreparedStatement rawPrepared = raw.prepareStatement("SELECT 1");
                ResultSet rawResults = rawStatement.executeQuery("SELECT 1");
                Connection repl = db.openRepl(); Statement statement = repl.createStatement();
                PreparedStatement prepared = repl.prepareStatement("SELECT 1");
                ResultSet results = statement.executeQuery("SELECT 1")) {
            SoftAssertions softly = new SoftAssertions();
            softly.assertThat(repl.toString()).as("connection").contains(raw.getClass().getName());
            softly.assertThat(statement.toString()).as("statement").contains(rawStatement.getClass().getName());
            softly.assertThat(prepared.toString()).as("prepared statement").contains(rawPrepared.getClass().getName());
            softly.assertThat(results.toString()).as("result set").contains(rawResults.getClass().getName());
            softly.assertThat(repl.getMetaData().toString()).as("metadata")
                    .contains(raw.getMetaData().getClass().getName());
            softly.assertAll();
        }
    }

    // ------------------------------------------------------------------ machinery

    /** A method only the vendor's connection type has, called on the unwrapped object. */
    private static Object vendorCall(Vendor vendor, Connection c) throws Exception {
        return switch (vendor) {
            case POSTGRESQL -> c.unwrap(org.postgresql.PGConnection.class).getBackendPID() > 0;
            case MARIADB -> c.unwrap(org.mariadb.jdbc.Connection.class).getThreadId() > 0;
            case MYSQL_DRIVER_ON_MARIADB -> c.unwrap(com.mysql.cj.jdbc.JdbcConnection.class).getId() > 0;
            case H2 -> c.unwrap(org.h2.jdbc.JdbcConnection.class).getSession() != null;
        };
    }

    /** Runs the scenario raw, then through jdbc:repl:, on freshly reset tables; returns the raw trace. */
    private static Trace assertSameThroughRepl(Vendor vendor, RawVsRepl.Scenario scenario) throws Exception {
        return RawVsRepl.assertSame(DATABASES.shared(vendor, "connection_transparency"), VendorSql::reset, scenario);
    }
}
