package io.jdbcrepl.spring;

import org.springframework.boot.actuate.autoconfigure.health.ConditionalOnEnabledHealthIndicator;
import org.springframework.boot.actuate.health.HealthIndicator;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnSingleCandidate;
import org.springframework.boot.autoconfigure.jdbc.DataSourceAutoConfiguration;
import org.springframework.context.annotation.Bean;

import javax.sql.DataSource;

/**
 * The health indicator {@code repl} ({@link ReplHealthIndicator}) when Spring Boot Actuator is
 * there; {@code management.health.repl.enabled=false} turns it off.
 */
@AutoConfiguration(after = {ReplAutoConfiguration.class, DataSourceAutoConfiguration.class},
        afterName = "org.springframework.boot.actuate.autoconfigure.jdbc.DataSourceHealthContributorAutoConfiguration")
@ConditionalOnClass(value = HealthIndicator.class,
        name = "org.springframework.boot.actuate.autoconfigure.health.HealthContributorAutoConfiguration")
@ConditionalOnBean(ReplNodes.class)
@ConditionalOnSingleCandidate(DataSource.class)
@ConditionalOnEnabledHealthIndicator("repl")
public class ReplHealthAutoConfiguration {

    @Bean
    @ConditionalOnMissingBean(name = "replHealthIndicator")
    public ReplHealthIndicator replHealthIndicator(DataSource dataSource, ReplNodes nodes, JdbcReplProperties properties) {
        return new ReplHealthIndicator(dataSource, nodes, properties.getHealth());
    }
}
