package io.jdbcrepl.spring;

import io.jdbcrepl.metrics.ReplMeterBinder;

import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.context.annotation.Bean;

/**
 * The driver's Micrometer metrics (SPEC 8.5) in the application's registries, when Micrometer is
 * there: Boot binds every {@code MeterBinder} bean to its registries, and this one brings the
 * {@code jdbc.repl.*} meters of every node in the JVM (docs/metrics.md).
 */
@AutoConfiguration(after = ReplAutoConfiguration.class,
        afterName = "org.springframework.boot.actuate.autoconfigure.metrics.MetricsAutoConfiguration")
@ConditionalOnClass(name = "io.micrometer.core.instrument.MeterRegistry")
public class ReplMetricsAutoConfiguration {

    @Bean
    @ConditionalOnMissingBean
    ReplMeterBinder replMeterBinder() {
        return new ReplMeterBinder();
    }
}
