package io.jdbcrepl.proxy;

import io.jdbcrepl.intercept.ConnectionInterceptor;
import io.jdbcrepl.intercept.ExecuteMethod;
import io.jdbcrepl.intercept.Execution;
import io.jdbcrepl.intercept.PreparedBatch;
import io.jdbcrepl.intercept.SqlBatch;
import io.jdbcrepl.intercept.StandbyInterceptor;
import io.jdbcrepl.intercept.StatementInterceptor;
import io.jdbcrepl.intercept.StatementKind;
import org.h2.jdbc.JdbcConnection;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Savepoint;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The hooks later features intercept with, exercised on a real (embedded H2) connection. */
class InterceptionHooksTest {

    private final List<String> events = new ArrayList<>();
    private final RecordingInterceptor interceptor = new RecordingInterceptor();
    private Connection raw;
    private Connection connection;

    @BeforeEach
    void open() throws SQLException {
        String url = "jdbc:h2:mem:hooks_" + UUID.randomUUID() + ";DB_CLOSE_DELAY=0";
        raw = DriverManager.getConnection(url);
        try (Statement s = raw.createStatement()) {
            s.execute("create table t (id int primary key, v varchar(20))");
        }
        connection = ProxyFactory.wrap(raw, interceptor, new Extension(), "hooks");
    }

    @AfterEach
    void close() throws SQLException {
        raw.close();
    }

    @Test
    void preparedStatementsArePlannedOnceAndTheirExecutionsIntercepted() throws SQLException {
        try (PreparedStatement ps = connection.prepareStatement("insert into t values (?, ?)")) {
            for (int i = 1; i <= 3; i++) {
                ps.setInt(1, i);
                ps.setString(2, "v" + i);
                assertThat(ps.executeUpdate()).isEqualTo(1);
            }
        }
        assertThat(events).containsExactly(
                "plan PREPARED insert into t values (?, ?)",
                "execute EXECUTE_UPDATE [1:setInt(1), 2:setString(v1)]",
                "execute EXECUTE_UPDATE [1:setInt(2), 2:setString(v2)]",
                "execute EXECUTE_UPDATE [1:setInt(3), 2:setString(v3)]");
        assertThat(count("select count(*) from t")).isEqualTo(3);
    }

    @Test
    void aPlanMayRewriteThePreparedSqlKeepingTheApplicationsParameters() throws SQLException {
        interceptor.rewriteTo = "insert into t values (?, upper(?))";
        try (PreparedStatement ps = connection.prepareStatement("insert into t values (?, ?)")) {
            ps.setInt(1, 1);
            ps.setString(2, "low");
            ps.executeUpdate();
        }
        assertThat(string("select v from t where id = 1")).isEqualTo("LOW");
    }

    @Test
    void anInterceptorMayTakeOverAnExecution() throws SQLException {
        interceptor.takeOver = true;
        try (PreparedStatement ps = connection.prepareStatement("update t set v = ? where id = ?")) {
            ps.setString(1, "x");
            ps.setInt(2, 9);
            assertThat(ps.executeUpdate()).isEqualTo(42);
            assertThat(ps.executeLargeUpdate()).isEqualTo(42L);
        }
    }

    @Test
    void plainStatementsAreInterceptedPerExecution() throws SQLException {
        try (Statement s = connection.createStatement()) {
            s.executeUpdate("insert into t values (1, 'a')");
            try (ResultSet rs = s.executeQuery("select v from t")) {
                assertThat(rs.next()).isTrue();
                assertThat(rs.getStatement()).isSameAs(s);
            }
        }
        assertThat(events).containsExactly(
                "plan PLAIN insert into t values (1, 'a')", "execute EXECUTE_UPDATE []",
                "plan PLAIN select v from t", "execute EXECUTE_QUERY []");
    }

    @Test
    void batchesSnapshotTheParametersAtAddBatch() throws SQLException {
        try (PreparedStatement ps = connection.prepareStatement("insert into t values (?, ?)")) {
            ps.setInt(1, 1);
            ps.setString(2, "a");
            ps.addBatch();
            ps.setInt(1, 2);
            ps.setString(2, "b");
            ps.addBatch();
            assertThat(ps.executeBatch()).containsExactly(1, 1);
            assertThat(ps.executeBatch()).isEmpty(); // emptied after running
        }
        assertThat(events).contains("batch insert into t values (?, ?) [[1:setInt(1), 2:setString(a)], "
                + "[1:setInt(2), 2:setString(b)]]", "batch insert into t values (?, ?) []");
        assertThat(count("select count(*) from t")).isEqualTo(2);
    }

    @Test
    void plainBatchesAreSeenWhole() throws SQLException {
        try (Statement s = connection.createStatement()) {
            s.addBatch("insert into t values (1, 'a')");
            s.addBatch("insert into t values (2, 'b')");
            assertThat(s.executeLargeBatch()).containsExactly(1L, 1L);
        }
        assertThat(events).containsExactly("sql batch [insert into t values (1, 'a'), insert into t values (2, 'b')]");
    }

    @Test
    void transactionBoundariesAreSeenInOrder() throws SQLException {
        connection.setAutoCommit(false);
        connection.createStatement().executeUpdate("insert into t values (1, 'a')");
        Savepoint sp = connection.setSavepoint("sp1");
        connection.createStatement().executeUpdate("insert into t values (2, 'b')");
        connection.rollback(sp);
        connection.commit();
        connection.createStatement().executeUpdate("insert into t values (3, 'c')");
        connection.rollback();
        connection.createStatement().executeUpdate("insert into t values (4, 'd')");
        connection.setAutoCommit(true); // commits
        events.removeIf(e -> e.startsWith("plan") || e.startsWith("execute"));
        assertThat(events).containsExactly("autocommit false", "savepoint sp1", "rollback to sp1",
                "before commit", "after commit", "rollback", "before commit", "after commit", "autocommit true");
        assertThat(count("select count(*) from t")).isEqualTo(2);
    }

    @Test
    void aFailingBeforeCommitAbortsTheCommit() throws SQLException {
        connection.setAutoCommit(false);
        connection.createStatement().executeUpdate("insert into t values (1, 'a')");
        interceptor.failCommit = true;
        assertThatThrownBy(connection::commit).isInstanceOf(SQLException.class).hasMessage("no commit today");
        connection.rollback();
        assertThat(count("select count(*) from t")).isZero();
        assertThat(events).doesNotContain("after commit");
    }

    @Test
    void closeIsSeen() throws SQLException {
        connection.close();
        assertThat(connection.isClosed()).isTrue();
        assertThat(events).containsExactly("close");
    }

    @Test
    void objectsLeadBackToTheirProxiesAndUnwrapReachesTheVendor() throws SQLException {
        Statement s = connection.createStatement();
        assertThat(s.getConnection()).isSameAs(connection);
        assertThat(connection.getMetaData().getConnection()).isSameAs(connection);
        PreparedStatement ps = connection.prepareStatement("select 1");
        assertThat(ps.getConnection()).isSameAs(connection);
        try (ResultSet rs = ps.executeQuery()) {
            assertThat(rs.getStatement()).isSameAs(ps);
        }
        assertThat(connection.isWrapperFor(JdbcConnection.class)).isTrue();
        assertThat(connection.unwrap(JdbcConnection.class)).isSameAs(raw);
        assertThat(connection.unwrap(Extension.class)).isInstanceOf(Extension.class);
        assertThat(connection.unwrap(Connection.class)).isSameAs(connection);
        assertThat(connection.toString()).contains("hooks").contains(raw.toString());
        assertThat(ps.toString()).contains("select 1");
        assertThat(connection).isEqualTo(ProxyFactory.wrap(raw, null, null, "other")).hasSameHashCodeAs(raw == null ? 0 : System.identityHashCode(raw));
    }

    @Test
    void withoutAnInterceptorNothingIsRecorded() throws SQLException {
        Connection plain = ProxyFactory.wrap(raw, null, null, "plain");
        try (PreparedStatement ps = plain.prepareStatement("insert into t values (?, ?)")) {
            ps.setInt(1, 1);
            ps.setString(2, "a");
            assertThat(ps.executeUpdate()).isEqualTo(1);
            assertThat(ps.getClass().getName()).endsWith("$Forwarding");
        }
        assertThat(events).isEmpty();
    }

    @Test
    void aStandbyInterceptorSeesNothingUntilAStatementNeedsItThenEverything() throws SQLException {
        List<String> asked = new ArrayList<>();
        StandbyInterceptor standby = new StandbyInterceptor() {
            @Override
            public boolean neededFor(String sql) {
                asked.add(sql);
                return sql.contains("needed");
            }

            @Override
            public StatementInterceptor onStatement(String sql, StatementKind kind) {
                events.add("plan " + kind + " " + sql);
                return null;
            }

            @Override
            public void beforeCommit(Connection c) {
                events.add("before commit");
            }
        };
        Connection onDemand = ProxyFactory.wrapOnDemand(raw, standby, new Extension(), "on demand");
        onDemand.setAutoCommit(false);
        try (Statement s = onDemand.createStatement(); PreparedStatement ps = onDemand.prepareStatement("select 1")) {
            s.executeUpdate("insert into t values (1, 'a')");
            ps.executeQuery().close();
            onDemand.commit();
            assertThat(events).isEmpty();
            assertThat(asked).containsExactly("select 1", "insert into t values (1, 'a')");
            s.execute("select 'needed'");
            s.execute("select 2");
            onDemand.commit();
        }
        assertThat(events).containsExactly("plan PLAIN select 'needed'", "plan PLAIN select 2", "before commit");
        assertThat(asked).hasSize(3); // asked no more once started

        Connection other = ProxyFactory.wrapOnDemand(raw, standby, new Extension(), "on demand");
        events.clear();
        assertThat(other.unwrap(Extension.class)).isInstanceOf(Extension.class);
        other.commit();
        assertThat(events).containsExactly("before commit"); // reaching the extension starts it too
    }

    private long count(String sql) throws SQLException {
        try (Statement s = raw.createStatement(); ResultSet rs = s.executeQuery(sql)) {
            rs.next();
            return rs.getLong(1);
        }
    }

    private String string(String sql) throws SQLException {
        try (Statement s = raw.createStatement(); ResultSet rs = s.executeQuery(sql)) {
            rs.next();
            return rs.getString(1);
        }
    }

    static final class Extension {
    }

    private final class RecordingInterceptor implements ConnectionInterceptor {
        String rewriteTo;
        boolean takeOver;
        boolean failCommit;

        @Override
        public StatementInterceptor onStatement(String sql, StatementKind kind) {
            events.add("plan " + kind + " " + sql);
            return new StatementInterceptor() {
                @Override
                public String preparedSql(String applicationSql) {
                    return rewriteTo == null ? applicationSql : rewriteTo;
                }

                @Override
                public boolean needsParameters() {
                    return true;
                }

                @Override
                public Object execute(Execution execution) throws SQLException {
                    events.add("execute " + execution.method() + " " + execution.parameters());
                    if (takeOver) return execution.method() == ExecuteMethod.EXECUTE_LARGE_UPDATE ? (Object) 42L : (Object) 42;
                    return execution.proceed();
                }

                @Override
                public long[] executeBatch(PreparedBatch batch) throws SQLException {
                    events.add("batch " + batch.sql() + " " + batch.parameterSets());
                    return batch.proceed();
                }
            };
        }

        @Override
        public long[] executeBatch(SqlBatch batch) throws SQLException {
            events.add("sql batch " + batch.sql());
            return batch.proceed();
        }

        @Override
        public void beforeCommit(Connection c) throws SQLException {
            if (failCommit) throw new SQLException("no commit today");
            events.add("before commit");
        }

        @Override
        public void afterCommit() {
            events.add("after commit");
        }

        @Override
        public void afterRollback() {
            events.add("rollback");
        }

        @Override
        public void afterSetSavepoint(Savepoint savepoint) {
            events.add("savepoint " + name(savepoint));
        }

        @Override
        public void afterRollbackToSavepoint(Savepoint savepoint) {
            events.add("rollback to " + name(savepoint));
        }

        @Override
        public void afterAutoCommitChange(boolean autoCommit) {
            events.add("autocommit " + autoCommit);
        }

        @Override
        public void afterClose() {
            events.add("close");
        }

        private String name(Savepoint sp) {
            try {
                return sp.getSavepointName();
            } catch (SQLException e) {
                return "?";
            }
        }
    }
}
