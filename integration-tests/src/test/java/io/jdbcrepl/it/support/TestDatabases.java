package io.jdbcrepl.it.support;

import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

import java.sql.SQLException;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;

/**
 * Creates a test's databases and drops them afterwards. Register it with
 * {@code @RegisterExtension}: {@link #perTest()} (an instance field) drops after each test,
 * {@link #perClass()} (a static field) after the class, which lets a class share one database
 * per vendor ({@link #shared}) across its tests.
 *
 * <pre>{@code
 * @RegisterExtension final TestDatabases databases = TestDatabases.perTest();
 *
 * @ForEachVendor
 * void something(Vendor vendor) throws Exception {
 *     List<TestDatabase> nodes = databases.nodes(vendor, "something", 3);
 *     ...
 * }
 * }</pre>
 */
public final class TestDatabases implements AfterEachCallback, AfterAllCallback {

    private final boolean perClass;
    private final List<TestDatabase> created = new ArrayList<>();
    private final Map<Vendor, TestDatabase> shared = new EnumMap<>(Vendor.class);

    private TestDatabases(boolean perClass) {
        this.perClass = perClass;
    }

    public static TestDatabases perTest() {
        return new TestDatabases(false);
    }

    public static TestDatabases perClass() {
        return new TestDatabases(true);
    }

    /** A new database, dropped after the test (or the class). */
    public synchronized TestDatabase create(Vendor vendor, String label) throws SQLException {
        TestDatabase db = TestDatabase.create(vendor, label);
        created.add(db);
        return db;
    }

    /** {@code count} new databases of one vendor, one per node. */
    public synchronized List<TestDatabase> nodes(Vendor vendor, String label, int count) throws SQLException {
        List<TestDatabase> nodes = TestDatabase.createNodes(vendor, label, count);
        created.addAll(nodes);
        return nodes;
    }

    /** One new database per vendor listed, in order: nodes of mixed vendors (PostgreSQL ⇄ MariaDB). */
    public synchronized List<TestDatabase> nodes(String label, Vendor... vendors) throws SQLException {
        List<TestDatabase> nodes = new ArrayList<>();
        for (int i = 0; i < vendors.length; i++) {
            nodes.add(create(vendors[i], label + "_n" + (i + 1)));
        }
        return nodes;
    }

    /** The class's one database of {@code vendor}, created on first use (only with {@link #perClass()}). */
    public synchronized TestDatabase shared(Vendor vendor, String label) throws SQLException {
        if (!perClass) {
            throw new IllegalStateException("shared databases need TestDatabases.perClass() in a static field");
        }
        TestDatabase db = shared.get(vendor);
        if (db == null) {
            db = create(vendor, label);
            shared.put(vendor, db);
        }
        return db;
    }

    @Override
    public void afterEach(ExtensionContext context) throws SQLException {
        if (!perClass) dropAll();
    }

    @Override
    public void afterAll(ExtensionContext context) throws SQLException {
        dropAll();
    }

    private synchronized void dropAll() throws SQLException {
        SQLException failure = null;
        for (TestDatabase db : created) {
            try {
                db.close();
            } catch (SQLException | RuntimeException e) {
                if (failure == null) failure = new SQLException("Could not drop every test database", e);
                else failure.addSuppressed(e);
            }
        }
        created.clear();
        shared.clear();
        if (failure != null) throw failure;
    }
}
