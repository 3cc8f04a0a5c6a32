package io.jdbcrepl.spring;

import io.jdbcrepl.api.ReplAdmin;
import org.springframework.boot.actuate.health.Health;
import org.springframework.boot.actuate.health.HealthIndicator;

import javax.sql.DataSource;
import java.util.function.LongSupplier;

/**
 * The health indicator {@code repl}: {@link ReplHealth} of the status of the data source's node.
 * The lag limit is the node's {@code repl.health.lag}. A reading asks every peer, so one is reused for {@code jdbc-repl.health.cache}: frequent probes
 * do not hammer the peers. A data source whose connections are no node (no {@code repl.node})
 * reports UNKNOWN, which leaves the application's health as it is.
 */
public class ReplHealthIndicator implements HealthIndicator {

    private final DataSource dataSource;
    private final ReplNodes nodes;
    private final long cacheNanos;
    private final LongSupplier nanoTime;
    private Health last;
    private long lastAt;

    public ReplHealthIndicator(DataSource dataSource, ReplNodes nodes, JdbcReplProperties.Health settings) {
        this(dataSource, nodes, settings, System::nanoTime);
    }

    ReplHealthIndicator(DataSource dataSource, ReplNodes nodes, JdbcReplProperties.Health settings, LongSupplier nanoTime) {
        this.dataSource = dataSource;
        this.nodes = nodes;
        this.cacheNanos = settings.getCache().toNanos();
        this.nanoTime = nanoTime;
    }

    @Override
    public synchronized Health health() {
        long now = nanoTime.getAsLong();
        if (last == null || now - lastAt >= cacheNanos) {
            last = read();
            lastAt = now;
        }
        return last;
    }

    private Health read() {
        try {
            ReplAdmin admin = nodes.admin(dataSource);
            if (admin == null) return Health.unknown().withDetail("node", "none: no repl.node, a pass-through").build();
            // the node's repl.health.lag, wherever it was set (jdbc-repl.health.lag, the URL, repl.config)
            return ReplHealth.of(admin.status(), admin.healthLag());
        } catch (Exception e) {
            return Health.down(e).build();
        }
    }
}
