package io.jdbcrepl.it.capture;

import io.jdbcrepl.it.support.TestDatabase;
import io.jdbcrepl.it.support.TestDatabases;
import io.jdbcrepl.it.support.Vendor;

import java.sql.SQLException;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Two PostgreSQL databases: the node, which the tests change through {@code jdbc:repl:} with
 * {@code repl.node}, and the mirror, which gets the same statements through the raw driver: the
 * reference for results and table contents. Tests work in {@link Sandbox}es, one schema each, so
 * that a class can share the two databases while every test has its own tables and its own
 * {@code repl_log} (in the sandbox's {@code repl.schema}).
 */
final class CapturePair {

    static final String NODE = "n1";
    private static final AtomicInteger SANDBOXES = new AtomicInteger();

    private final TestDatabase node;
    private final TestDatabase mirror;

    private CapturePair(TestDatabase node, TestDatabase mirror) {
        this.node = node;
        this.mirror = mirror;
    }

    /** Two new databases, dropped with {@code databases}. */
    static CapturePair create(TestDatabases databases, String label) throws SQLException {
        return new CapturePair(databases.create(Vendor.POSTGRESQL, label + "_node"),
                databases.create(Vendor.POSTGRESQL, label + "_mirror"));
    }

    TestDatabase node() {
        return node;
    }

    TestDatabase mirror() {
        return mirror;
    }

    /** A new schema on both databases, with {@code ddl} run in it on both. */
    Sandbox sandbox(String... ddl) throws SQLException {
        return new Sandbox(this, "s" + SANDBOXES.incrementAndGet(), ddl);
    }
}
