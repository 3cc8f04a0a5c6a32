package io.jdbcrepl.it.capture;

import io.jdbcrepl.it.support.TestDatabases;
import io.jdbcrepl.lcr.RowImage;
import io.jdbcrepl.lcr.TypedValue;
import io.jdbcrepl.lcr.ValueType;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.OffsetDateTime;
import java.time.temporal.ChronoUnit;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * SPEC 5.6: with {@code repl.timestamp.<table>=<col>} every captured INSERT and UPDATE sets the
 * column to the current time, or to the old value plus one microsecond when the old value is not
 * earlier than now; the values of a row therefore always increase. The LCR carries the value the
 * row got (new values and change vector; its old value too on UPDATE).
 */
class ResolutionTimestampCaptureIT {

    @RegisterExtension
    static final TestDatabases DATABASES = TestDatabases.perClass();

    static final String EMP = "CREATE TABLE emp (id int PRIMARY KEY, salary int, time timestamp(6))";
    static final String EV = "CREATE TABLE ev (id int PRIMARY KEY, v int, at timestamptz(6))";
    static final String[] REPL = {"repl.timestamp.emp", "time", "repl.timestamp.ev", "at"};

    private static CapturePair pair;

    @BeforeAll
    static void databases() throws SQLException {
        pair = CapturePair.create(DATABASES, "timestamp");
    }

    /** The database's clock now, as a timestamp without time zone in the session's zone. */
    private static LocalDateTime dbNow(Connection raw) throws SQLException {
        try (Statement s = raw.createStatement(); ResultSet rs = s.executeQuery("SELECT clock_timestamp()::timestamp")) {
            rs.next();
            return rs.getObject(1, LocalDateTime.class);
        }
    }

    private static Map<Integer, LocalDateTime> times(Connection raw) throws SQLException {
        Map<Integer, LocalDateTime> out = new HashMap<>();
        try (Statement s = raw.createStatement(); ResultSet rs = s.executeQuery("SELECT id, time FROM emp")) {
            while (rs.next()) out.put(rs.getInt(1), rs.getObject(2, LocalDateTime.class));
        }
        return out;
    }

    private static TypedValue ts(LocalDateTime t) {
        return new TypedValue(ValueType.TIMESTAMP, t);
    }

    @Test
    void insertsSetTheTimestampWhateverTheApplicationGives() throws Exception {
        Sandbox box = pair.sandbox(EMP, EV);
        box.seed("INSERT INTO emp VALUES (100, 1, '2000-01-01')");
        try (Connection raw = box.raw(); Connection c = box.capturing(REPL)) {
            LocalDateTime before = dbNow(raw);
            try (Statement s = c.createStatement()) {
                assertThat(s.executeUpdate("INSERT INTO emp (id, salary) VALUES (1, 10)")).isEqualTo(1);
                assertThat(s.executeUpdate("INSERT INTO emp (id, salary, time) VALUES (2, 20, '1999-12-31 23:59:59')")).isEqualTo(1);
                assertThat(s.executeUpdate("INSERT INTO emp VALUES (3, 30, DEFAULT), (4, 40, NULL)")).isEqualTo(2);
                assertThat(s.executeUpdate("INSERT INTO emp (time, id) SELECT time, id + 5 FROM emp WHERE id = 100")).isEqualTo(1);
                assertThat(s.executeUpdate("INSERT INTO emp VALUES (6, 60)")).isEqualTo(1);
                assertThat(s.executeUpdate("INSERT INTO emp SELECT id + 100, salary FROM emp WHERE id = 100"))
                        .as("a query without a column list: its width tells the columns it fills").isEqualTo(1);
            }
            try (PreparedStatement ps = c.prepareStatement("INSERT INTO emp (id, time, salary) VALUES (?, ?, ?)")) {
                ps.setInt(1, 7);
                ps.setObject(2, LocalDateTime.of(1980, 1, 1, 0, 0));
                ps.setInt(3, 70);
                assertThat(ps.executeUpdate()).as("prepared insert, its parameters still bound in order").isEqualTo(1);
            }
            LocalDateTime after = dbNow(raw);
            Map<Integer, LocalDateTime> stored = times(raw);
            for (int id : new int[] {1, 2, 3, 4, 6, 7, 105, 200}) {
                assertThat(stored.get(id)).as("time of row %d set by the driver", id).isNotNull().isBetween(before, after);
            }
            try (Statement s = raw.createStatement(); ResultSet rs = s.executeQuery("SELECT salary FROM emp WHERE id = 7")) {
                rs.next();
                assertThat(rs.getInt(1)).as("the parameter after the timestamp's").isEqualTo(70);
            }
            List<LoggedLcr> log = box.log();
            assertThat(log).hasSize(8);
            Map<Integer, String> cvs = Map.of(1, "[id, salary, time]", 2, "[id, salary, time]", 3, "[id, salary, time]",
                    4, "[id, salary, time]", 105, "[id, time]", 6, "[id, salary, time]", 7, "[id, salary, time]",
                    200, "[id, salary, time]");
            for (LoggedLcr l : log) {
                assertThat(l.command()).isEqualTo("INSERT");
                int id = ((Long) l.newValues().get("id").value()).intValue();
                assertThat(l.newValues().get("time")).as("logged time of row %d: what the row got", id).isEqualTo(ts(stored.get(id)));
                assertThat(l.changeVector()).as("change vector of row %d", id).hasToString(cvs.get(id));
            }
        }
    }

    @Test
    void updatesSetTheTimestampAndItAlwaysIncreases() throws Exception {
        Sandbox box = pair.sandbox(EMP, EV);
        box.seed("INSERT INTO emp SELECT n, n, NULL FROM generate_series(1, 3) AS n");
        try (Connection raw = box.raw(); Connection c = box.capturing(REPL)) {
            try (Statement s = c.createStatement()) {
                s.executeUpdate("UPDATE emp SET salary = salary WHERE id IN (1, 2, 3)"); // NULL: now
            }
            Map<Integer, LocalDateTime> last = times(raw);
            assertThat(last.values()).doesNotContainNull();
            long position = box.log().get(box.log().size() - 1).position();
            try (PreparedStatement one = c.prepareStatement("UPDATE emp SET salary = salary + ? WHERE id = ?");
                    PreparedStatement past = c.prepareStatement("UPDATE emp SET time = ? WHERE id = ?");
                    Statement many = c.createStatement()) {
                for (int round = 0; round < 20; round++) {
                    if (round == 10) c.setAutoCommit(false); // the second half in one transaction
                    one.setInt(1, 1);
                    one.setInt(2, 1);
                    assertThat(one.executeUpdate()).isEqualTo(1);
                    past.setObject(1, LocalDateTime.of(2001, 1, 1, 0, 0));
                    past.setInt(2, 2);
                    assertThat(past.executeUpdate()).as("an update that assigns an older time").isEqualTo(1);
                    assertThat(many.executeUpdate("UPDATE emp SET salary = salary - 1")).isEqualTo(3);
                    // inside the transaction, read through its own connection (queries pass through)
                    Map<Integer, LocalDateTime> now = c.getAutoCommit() ? times(raw) : times(c);
                    for (int id = 1; id <= 3; id++) {
                        assertThat(now.get(id)).as("round %d: time of row %d increased", round, id).isAfter(last.get(id));
                    }
                    last = now;
                }
                c.commit();
                c.setAutoCommit(true);
            }
            // every UPDATE LCR: old time < new time, old values chain per row
            Map<Integer, LocalDateTime> previous = new HashMap<>();
            for (LoggedLcr l : box.log()) {
                if (l.position() <= position) continue;
                assertThat(l.command()).isEqualTo("UPDATE");
                int id = ((Long) l.oldValues().get("id").value()).intValue();
                LocalDateTime o = (LocalDateTime) l.oldValues().get("time").value();
                LocalDateTime n = (LocalDateTime) l.newValues().get("time").value();
                assertThat(n).as("new time after old time in %s", l).isAfter(o);
                if (previous.containsKey(id)) assertThat(o).as("old time is the previous new time: %s", l).isEqualTo(previous.get(id));
                previous.put(id, n);
                assertThat(l.changeVector()).as("change vector of %s", l).contains("time");
            }
            assertThat(previous).as("final time of each row is the last logged").isEqualTo(times(raw));
        }
    }

    @Test
    void aTimestampInTheFutureGrowsByOneMicrosecond() throws Exception {
        Sandbox box = pair.sandbox(EMP, EV);
        box.seed("INSERT INTO emp VALUES (1, 100, NULL), (2, 200, NULL)");
        try (Connection raw = box.raw(); Connection c = box.capturing(REPL)) {
            try (Statement s = raw.createStatement()) {
                s.executeUpdate("UPDATE emp SET time = date_trunc('second', localtimestamp) + interval '1 hour' + interval '0.000001 second'");
            }
            LocalDateTime future = times(raw).get(1);
            try (Statement s = c.createStatement()) {
                assertThat(s.executeUpdate("UPDATE emp SET salary = 101 WHERE id = 1")).isEqualTo(1);
                assertThat(times(raw).get(1)).as("old + 1 µs").isEqualTo(future.plus(1, ChronoUnit.MICROS));
                assertThat(s.executeUpdate("UPDATE emp SET salary = 102, time = now() WHERE id = 1")).isEqualTo(1);
                assertThat(times(raw).get(1)).as("old + 2 µs, whatever the statement assigns").isEqualTo(future.plus(2, ChronoUnit.MICROS));
                assertThat(s.executeUpdate("UPDATE emp SET salary = salary + 1")).isEqualTo(2);
            }
            Map<Integer, LocalDateTime> stored = times(raw);
            assertThat(stored.get(1)).isEqualTo(future.plus(3, ChronoUnit.MICROS));
            assertThat(stored.get(2)).isEqualTo(future.plus(1, ChronoUnit.MICROS));
            List<LoggedLcr> log = box.log();
            assertThat(log).hasSize(4);
            assertThat(log.get(0).oldValues().get("time")).isEqualTo(ts(future));
            assertThat(log.get(0).newValues()).isEqualTo(new RowImage().put("salary", ValueType.INTEGER, 101L)
                    .put("time", ts(future.plus(1, ChronoUnit.MICROS))));
            assertThat(log.get(0).changeVector()).containsExactly("salary", "time");
            assertThat(log.get(1).newValues()).isEqualTo(new RowImage().put("salary", ValueType.INTEGER, 102L)
                    .put("time", ts(future.plus(2, ChronoUnit.MICROS))));
            assertThat(log.get(1).oldValues().get("time")).isEqualTo(ts(future.plus(1, ChronoUnit.MICROS)));
        }
    }

    /** UPDATE … FROM maintains the timestamp as any UPDATE does, from the locked old value. */
    @Test
    void aJoinUpdateSetsTheTimestampToo() throws Exception {
        Sandbox box = pair.sandbox(EMP, EV);
        box.seed("INSERT INTO emp VALUES (1, 100, NULL), (2, 200, NULL)");
        try (Connection raw = box.raw(); Connection c = box.capturing(REPL)) {
            try (Statement s = raw.createStatement()) {
                s.executeUpdate("UPDATE emp SET time = date_trunc('second', localtimestamp) + interval '1 hour' WHERE id = 1");
            }
            LocalDateTime future = times(raw).get(1);
            LocalDateTime before = dbNow(raw);
            try (Statement s = c.createStatement()) {
                assertThat(s.executeUpdate("UPDATE emp SET salary = v.s FROM (VALUES (1, 101), (2, 201)) AS v(id, s)"
                        + " WHERE v.id = emp.id")).isEqualTo(2);
            }
            Map<Integer, LocalDateTime> stored = times(raw);
            assertThat(stored.get(1)).as("old + 1 µs").isEqualTo(future.plus(1, ChronoUnit.MICROS));
            assertThat(stored.get(2)).as("now").isBetween(before, dbNow(raw));
            for (LoggedLcr l : box.log()) {
                int id = ((Long) l.oldValues().get("id").value()).intValue();
                assertThat(l.changeVector()).containsExactly("salary", "time");
                assertThat(l.newValues()).isEqualTo(new RowImage().put("salary", ValueType.INTEGER, id * 100L + 1)
                        .put("time", ts(stored.get(id))));
                assertThat(l.oldValues().get("time")).isEqualTo(id == 1 ? ts(future) : ts(null));
            }
            assertThat(box.log()).hasSize(2);
        }
    }

    @Test
    void timestampWithTimeZone() throws Exception {
        Sandbox box = pair.sandbox(EMP, EV);
        box.seed("INSERT INTO ev VALUES (1, 1, now() + interval '2 hours'), (2, 2, '2001-01-01 00:00:00+00')");
        try (Connection raw = box.raw(); Connection c = box.capturing(REPL)) {
            Map<Integer, Instant> before = instants(raw);
            try (Statement s = c.createStatement()) {
                assertThat(s.executeUpdate("INSERT INTO ev (id, v) VALUES (3, 3)")).isEqualTo(1);
                assertThat(s.executeUpdate("UPDATE ev SET v = v + 1")).isEqualTo(3);
            }
            Map<Integer, Instant> after = instants(raw);
            assertThat(after.get(1)).as("future value + 1 µs").isEqualTo(before.get(1).plus(1, ChronoUnit.MICROS));
            assertThat(after.get(2)).as("past value: now").isAfter(Instant.now().minus(1, ChronoUnit.HOURS));
            assertThat(after.get(3)).isAfter(before.get(2));
            for (LoggedLcr l : box.log()) {
                RowImage image = l.newValues();
                int id = ((Long) (l.command().equals("INSERT") ? image : l.oldValues()).get("id").value()).intValue();
                if (l.command().equals("UPDATE")) {
                    assertThat(((OffsetDateTime) image.get("at").value()).toInstant()).as("logged at of %s", l)
                            .isEqualTo(after.get(id));
                    assertThat(l.changeVector()).containsExactly("v", "at");
                }
                assertThat(image.get("at").type()).isEqualTo(ValueType.TIMESTAMPTZ);
            }
        }
    }

    private static Map<Integer, Instant> instants(Connection raw) throws SQLException {
        Map<Integer, Instant> out = new HashMap<>();
        try (Statement s = raw.createStatement(); ResultSet rs = s.executeQuery("SELECT id, at FROM ev")) {
            while (rs.next()) out.put(rs.getInt(1), rs.getObject(2, OffsetDateTime.class).toInstant());
        }
        return out;
    }
}
