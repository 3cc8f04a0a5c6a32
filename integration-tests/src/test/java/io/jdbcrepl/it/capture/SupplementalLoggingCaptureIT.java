package io.jdbcrepl.it.capture;

import io.jdbcrepl.it.support.TestDatabases;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import java.util.Map;

import static io.jdbcrepl.it.capture.Expect.delete;
import static io.jdbcrepl.it.capture.Expect.i;
import static io.jdbcrepl.it.capture.Expect.insert;
import static io.jdbcrepl.it.capture.Expect.s;
import static io.jdbcrepl.it.capture.Expect.tx;
import static io.jdbcrepl.it.capture.Expect.update;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * SPEC 3.3: which old values an UPDATE logs. Key columns and assigned columns always; with
 * {@code repl.supplemental=ALL} every column; unconditional log groups always; conditional log
 * groups, and each prebuilt handler's column list, when the statement assigns one of their
 * members. Substitute keys stand in for a missing primary key; a replicated table with neither is
 * keyed by every comparable column.
 */
class SupplementalLoggingCaptureIT {

    @RegisterExtension
    static final TestDatabases DATABASES = TestDatabases.perClass();

    static final String EMP = "CREATE TABLE emp (id int PRIMARY KEY, name text, salary numeric(10,2),"
            + " commission numeric(4,2), dept int, time timestamp(6))";
    static final String SEED = "INSERT INTO emp VALUES (1, 'ann', 4400.00, 0.10, 10, '2024-01-01 08:00:00'),"
            + " (2, 'bob', 3000.00, NULL, 20, '2024-01-02 09:30:00.123456')";
    static final Map<String, List<String>> KEYS = Map.of("emp", List.of("id"));

    /** The three updates every test here runs. */
    static final String RAISE = "UPDATE emp SET salary = 4900 WHERE id = 1";
    static final String MOVE = "UPDATE emp SET name = 'bobby', dept = 21 WHERE id = 2";
    static final String STAMP = "UPDATE emp SET time = '2024-02-01 00:00:00.5' WHERE id = 1";

    // old values of the seeded rows, column by column
    static final String ID1 = "id=" + i(1);
    static final String ID2 = "id=" + i(2);
    static final String ANN = "name=" + s("ann");
    static final String BOB = "name=" + s("bob");
    static final String SAL1 = "salary=DECIMAL:4400.00";
    static final String SAL2 = "salary=DECIMAL:3000.00";
    static final String COM1 = "commission=DECIMAL:0.10";
    static final String COM2 = "commission=DECIMAL:null";
    static final String DEPT1 = "dept=" + i(10);
    static final String DEPT2 = "dept=" + i(20);
    static final String TIME1 = "time=TIMESTAMP:2024-01-01T08:00";
    static final String TIME2 = "time=TIMESTAMP:2024-01-02T09:30:00.123456";
    // after RAISE, new values
    static final String RAISED = "salary=DECIMAL:4900.00";
    static final String MOVED = "name=" + s("bobby") + ", dept=" + i(21);
    static final String STAMPED = "time=TIMESTAMP:2024-02-01T00:00:00.500";

    private static CapturePair pair;

    @BeforeAll
    static void databases() throws SQLException {
        pair = CapturePair.create(DATABASES, "supplemental");
    }

    private static String old(String... values) {
        return String.join(", ", values);
    }

    /** Runs RAISE, MOVE and STAMP with {@code repl}, compares with the mirror, and returns the sandbox. */
    private static Sandbox threeUpdates(String... repl) throws Exception {
        Sandbox box = pair.sandbox(EMP);
        box.seed(SEED);
        box.compare(Sandbox.map(repl), (c, t) -> {
            try (Statement s = c.createStatement()) {
                t.value("raise", () -> s.executeUpdate(RAISE));
                t.value("move", () -> s.executeUpdate(MOVE));
                t.value("stamp", () -> s.executeUpdate(STAMP));
            }
        });
        box.assertSameContents("emp");
        return box;
    }

    @Test
    void keysByDefault() throws Exception {
        Sandbox box = threeUpdates();
        box.assertTransactions(
                tx(update("emp", old(ID1, SAL1), RAISED, "salary")),
                tx(update("emp", old(ID2, BOB, DEPT2), MOVED, "name, dept")),
                tx(update("emp", old(ID1, TIME1), STAMPED, "time")));
        box.assertLogReplays(KEYS, "emp");
    }

    @Test
    void keysExplicitly() throws Exception {
        Sandbox box = threeUpdates("repl.supplemental", "KEYS");
        box.assertTransactions(
                tx(update("emp", old(ID1, SAL1), RAISED, "salary")),
                tx(update("emp", old(ID2, BOB, DEPT2), MOVED, "name, dept")),
                tx(update("emp", old(ID1, TIME1), STAMPED, "time")));
    }

    @Test
    void allColumns() throws Exception {
        Sandbox box = threeUpdates("repl.supplemental", "ALL");
        box.assertTransactions(
                tx(update("emp", old(ID1, ANN, SAL1, COM1, DEPT1, TIME1), RAISED, "salary")),
                tx(update("emp", old(ID2, BOB, SAL2, COM2, DEPT2, TIME2), MOVED, "name, dept")),
                tx(update("emp", old(ID1, ANN, "salary=DECIMAL:4900.00", COM1, DEPT1, TIME1), STAMPED, "time")));
        box.assertLogReplays(KEYS, "emp");
    }

    @Test
    void conditionalLogGroupOnlyWhenAMemberIsAssigned() throws Exception {
        Sandbox box = threeUpdates("repl.loggroup.emp.pay", "salary,commission");
        box.assertTransactions(
                tx(update("emp", old(ID1, SAL1, COM1), RAISED, "salary")),
                tx(update("emp", old(ID2, BOB, DEPT2), MOVED, "name, dept")),
                tx(update("emp", old(ID1, TIME1), STAMPED, "time")));
        box.assertLogReplays(KEYS, "emp");
    }

    @Test
    void conditionalLogGroupOnASchemaQualifiedTable() throws Exception {
        Sandbox box = pair.sandbox(EMP);
        box.seed(SEED);
        try (Connection c = box.capturing("repl.loggroup." + box.schema() + ".emp.pay", "salary,commission");
                Statement s = c.createStatement()) {
            assertThat(s.executeUpdate(RAISE)).isEqualTo(1);
            assertThat(s.executeUpdate(MOVE)).isEqualTo(1);
        }
        box.assertTransactions(
                tx(update("emp", old(ID1, SAL1, COM1), RAISED, "salary")),
                tx(update("emp", old(ID2, BOB, DEPT2), MOVED, "name, dept")));
    }

    @Test
    void unconditionalLogGroupAlways() throws Exception {
        Sandbox box = threeUpdates("repl.loggroup.emp.org", "dept,name", "repl.loggroup.emp.org.always", "true",
                "repl.loggroup.emp.pay", "salary,commission");
        box.assertTransactions(
                tx(update("emp", old(ID1, ANN, SAL1, COM1, DEPT1), RAISED, "salary")),
                tx(update("emp", old(ID2, BOB, DEPT2), MOVED, "name, dept")),
                tx(update("emp", old(ID1, ANN, DEPT1, TIME1), STAMPED, "time")));
        box.assertLogReplays(KEYS, "emp");
    }

    @Test
    void alwaysFalseIsConditional() throws Exception {
        Sandbox box = threeUpdates("repl.loggroup.emp.org", "dept,name", "repl.loggroup.emp.org.always", "false");
        box.assertTransactions(
                tx(update("emp", old(ID1, SAL1), RAISED, "salary")),
                tx(update("emp", old(ID2, BOB, DEPT2), MOVED, "name, dept")),
                tx(update("emp", old(ID1, TIME1), STAMPED, "time")));
    }

    /** SPEC 3.3: a prebuilt handler's column list is a conditional log group on this node. */
    @Test
    void handlerColumnListActsAsConditionalLogGroup() throws Exception {
        Sandbox box = threeUpdates("repl.handler.h.table", "emp", "repl.handler.h.type", "MAXIMUM",
                "repl.handler.h.columns", "salary,time", "repl.handler.h.resolution", "time");
        box.assertTransactions(
                tx(update("emp", old(ID1, SAL1, TIME1), RAISED, "salary")),
                tx(update("emp", old(ID2, BOB, DEPT2), MOVED, "name, dept")),
                tx(update("emp", old(ID1, "salary=DECIMAL:4900.00", TIME1), STAMPED, "time")));
        box.assertLogReplays(KEYS, "emp");
    }

    @Test
    void handlerListAndLogGroupsTogether() throws Exception {
        Sandbox box = threeUpdates("repl.handler.h.table", "emp", "repl.handler.h.type", "MAXIMUM",
                "repl.handler.h.columns", "salary,time", "repl.handler.h.resolution", "time",
                "repl.loggroup.emp.who", "name", "repl.loggroup.emp.who.always", "true",
                "repl.loggroup.emp.pay", "commission,dept");
        box.assertTransactions(
                tx(update("emp", old(ID1, ANN, SAL1, TIME1), RAISED, "salary")),
                tx(update("emp", old(ID2, BOB, COM2, DEPT2), MOVED, "name, dept")),
                tx(update("emp", old(ID1, ANN, "salary=DECIMAL:4900.00", TIME1), STAMPED, "time")));
    }

    @Test
    void compositePrimaryKey() throws Exception {
        Sandbox box = pair.sandbox("CREATE TABLE line (order_id int, line_no int, qty int, PRIMARY KEY (order_id, line_no))");
        box.seed("INSERT INTO line VALUES (1, 1, 5), (1, 2, 6)");
        box.compare((c, t) -> {
            try (Statement s = c.createStatement()) {
                t.value("update", () -> s.executeUpdate("UPDATE line SET qty = qty + 1 WHERE order_id = 1"));
                t.value("key update", () -> s.executeUpdate("UPDATE line SET line_no = 3 WHERE line_no = 2"));
            }
        });
        box.assertSameContents("line");
        box.assertTransactions(
                tx(update("line", "order_id=" + i(1) + ", line_no=" + i(1) + ", qty=" + i(5), "qty=" + i(6), "qty"),
                        update("line", "order_id=" + i(1) + ", line_no=" + i(2) + ", qty=" + i(6), "qty=" + i(7), "qty")),
                tx(update("line", "order_id=" + i(1) + ", line_no=" + i(2), "line_no=" + i(3), "line_no")));
        box.assertLogReplays(Map.of("line", List.of("order_id", "line_no")), "line");
    }

    // ------------------------------------------------------------------ substitute keys, no key

    static final String NOKEY = "CREATE TABLE nokey (code text NOT NULL, region text NOT NULL, v int, w text)";

    @Test
    void substituteKeyOnATableWithoutPrimaryKey() throws Exception {
        Sandbox box = pair.sandbox(NOKEY);
        box.seed("INSERT INTO nokey VALUES ('a', 'eu', 1, 'x'), ('a', 'us', 2, 'y')");
        box.compare(Sandbox.map("repl.key.nokey", "code,region"), (c, t) -> {
            try (Statement s = c.createStatement()) {
                t.value("insert", () -> s.executeUpdate("INSERT INTO nokey VALUES ('b', 'eu', 3, 'z')"));
                t.value("update", () -> s.executeUpdate("UPDATE nokey SET v = v * 10 WHERE code = 'a'"));
                t.value("update of a key column", () -> s.executeUpdate("UPDATE nokey SET region = 'ap' WHERE code = 'b'"));
                t.value("delete", () -> s.executeUpdate("DELETE FROM nokey WHERE region = 'us'"));
            }
        });
        box.assertSameContents("nokey");
        box.assertTransactions(
                tx(insert("nokey", "code=" + s("b") + ", region=" + s("eu") + ", v=" + i(3) + ", w=" + s("z"), "code, region, v, w")),
                tx(update("nokey", "code=" + s("a") + ", region=" + s("eu") + ", v=" + i(1), "v=" + i(10), "v"),
                        update("nokey", "code=" + s("a") + ", region=" + s("us") + ", v=" + i(2), "v=" + i(20), "v")),
                tx(update("nokey", "code=" + s("b") + ", region=" + s("eu"), "region=" + s("ap"), "region")),
                tx(delete("nokey", "code=" + s("a") + ", region=" + s("us") + ", v=" + i(20) + ", w=" + s("y"))));
        box.assertLogReplays(Map.of("nokey", List.of("code", "region")), "nokey");
    }

    @Test
    void substituteKeyOverridesThePrimaryKey() throws Exception {
        Sandbox box = pair.sandbox("CREATE TABLE acct (id serial PRIMARY KEY, iban text NOT NULL UNIQUE, balance int)");
        box.seed("INSERT INTO acct (iban, balance) VALUES ('DE1', 10)");
        try (Connection c = box.capturing("repl.key.acct", "iban"); Statement s = c.createStatement()) {
            assertThat(s.executeUpdate("UPDATE acct SET balance = 11")).isEqualTo(1);
        }
        box.assertTransactions(tx(update("acct", "iban=" + s("DE1") + ", balance=" + i(10), "balance=" + i(11), "balance")));
    }

    @Test
    void replicatedTableWithoutAnyKeyIsKeyedByEveryComparableColumn() throws Exception {
        // SPEC 3.3: neither primary nor substitute key: Oracle's rule, every comparable column is the key,
        // so with KEYS an UPDATE's old values carry them all
        Sandbox box = pair.sandbox(NOKEY);
        box.seed("INSERT INTO nokey VALUES ('a', 'eu', 1, 'x')");
        box.compare(Sandbox.map(), (c, t) -> {
            try (Statement s = c.createStatement()) {
                t.value("insert", () -> s.executeUpdate("INSERT INTO nokey VALUES ('b', 'eu', 3, 'z')"));
                t.value("update", () -> s.executeUpdate("UPDATE nokey SET v = 2 WHERE code = 'a'"));
                t.value("delete", () -> s.executeUpdate("DELETE FROM nokey WHERE code = 'b'"));
            }
        });
        box.assertSameContents("nokey");
        box.assertTransactions(
                tx(insert("nokey", "code=" + s("b") + ", region=" + s("eu") + ", v=" + i(3) + ", w=" + s("z"), "code, region, v, w")),
                tx(update("nokey", "code=" + s("a") + ", region=" + s("eu") + ", v=" + i(1) + ", w=" + s("x"), "v=" + i(2), "v")),
                tx(delete("nokey", "code=" + s("b") + ", region=" + s("eu") + ", v=" + i(3) + ", w=" + s("z"))));
        box.assertLogReplays(Map.of("nokey", List.of("code", "region", "v", "w")), "nokey");
    }
}
