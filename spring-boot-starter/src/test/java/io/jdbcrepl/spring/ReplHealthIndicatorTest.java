package io.jdbcrepl.spring;

import io.jdbcrepl.api.ErrorEntry;
import io.jdbcrepl.api.NodeStatus;
import io.jdbcrepl.api.ReplAdmin;
import org.junit.jupiter.api.Test;
import org.springframework.boot.actuate.health.Status;

import javax.sql.DataSource;
import java.sql.SQLException;
import java.sql.SQLTransientConnectionException;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

import static org.assertj.core.api.Assertions.assertThat;

class ReplHealthIndicatorTest {

    private final AtomicLong now = new AtomicLong();
    private final CountingAdmin admin = new CountingAdmin();

    @Test
    void oneReadingServesTheProbesOfTheCacheTime() {
        ReplHealthIndicator indicator = indicator(nodesAnswering(admin), Duration.ofSeconds(3));
        assertThat(indicator.health().getStatus()).isEqualTo(Status.UP);
        now.addAndGet(Duration.ofMillis(2999).toNanos());
        indicator.health();
        assertThat(admin.reads.get()).isEqualTo(1);
        now.addAndGet(Duration.ofMillis(1).toNanos());
        indicator.health();
        assertThat(admin.reads.get()).isEqualTo(2);
    }

    @Test
    void noCacheReadsEachTime() {
        ReplHealthIndicator indicator = indicator(nodesAnswering(admin), Duration.ZERO);
        indicator.health();
        indicator.health();
        assertThat(admin.reads.get()).isEqualTo(2);
    }

    @Test
    void aPassThroughIsUnknown() {
        assertThat(indicator(nodesAnswering(null), Duration.ZERO).health().getStatus()).isEqualTo(Status.UNKNOWN);
    }

    @Test
    void aDatabaseThatDoesNotAnswerIsDown() {
        ReplNodes failing = new ReplNodes() {
            @Override
            public ReplAdmin admin(DataSource dataSource) throws SQLException {
                throw new SQLTransientConnectionException("pool timed out");
            }
        };
        var health = indicator(failing, Duration.ZERO).health();
        assertThat(health.getStatus()).isEqualTo(Status.DOWN);
        assertThat(health.getDetails().get("error").toString()).contains("pool timed out");
    }

    private ReplHealthIndicator indicator(ReplNodes nodes, Duration cache) {
        JdbcReplProperties.Health settings = new JdbcReplProperties.Health();
        settings.setCache(cache);
        return new ReplHealthIndicator(null, nodes, settings, now::get);
    }

    private static ReplNodes nodesAnswering(ReplAdmin admin) {
        return new ReplNodes() {
            @Override
            public ReplAdmin admin(DataSource dataSource) {
                return admin;
            }
        };
    }

    /** Answers status() with one running peer and counts the readings; nothing else is asked of it. */
    private static final class CountingAdmin implements ReplAdmin {
        final AtomicInteger reads = new AtomicInteger();

        @Override
        public NodeStatus status() {
            reads.incrementAndGet();
            return ReplHealthTest.node(ReplHealthTest.peer("n2", "RUNNING", 0));
        }

        @Override
        public Duration healthLag() {
            return Duration.ofSeconds(30);
        }

        @Override
        public void install() {
            throw new UnsupportedOperationException();
        }

        @Override
        public void waitForPeers(Duration timeout) {
            throw new UnsupportedOperationException();
        }

        @Override
        public void join(String donor, boolean replace, java.util.function.Consumer<io.jdbcrepl.api.JoinProgress> progress) {
            throw new UnsupportedOperationException();
        }

        @Override
        public long purge() {
            throw new UnsupportedOperationException();
        }

        @Override
        public void startApply() {
            throw new UnsupportedOperationException();
        }

        @Override
        public void stopApply() {
            throw new UnsupportedOperationException();
        }

        @Override
        public List<ErrorEntry> errors() {
            throw new UnsupportedOperationException();
        }

        @Override
        public ErrorEntry error(long id) {
            throw new UnsupportedOperationException();
        }

        @Override
        public void retryError(long id) {
            throw new UnsupportedOperationException();
        }

        @Override
        public int retryAllErrors() {
            throw new UnsupportedOperationException();
        }

        @Override
        public void deleteError(long id) {
            throw new UnsupportedOperationException();
        }
    }
}
