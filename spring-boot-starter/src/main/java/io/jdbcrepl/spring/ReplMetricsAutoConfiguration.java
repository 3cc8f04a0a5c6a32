package io.jdbcrepl.spring;

import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;

/**
 * The driver's Micrometer metrics (SPEC 8.5) in the application's registry, when Micrometer is
 * there. Boot binds every {@code MeterBinder} bean to its registries, so the metrics core's binder
 * of all the JVM's nodes is this configuration's one bean; it comes with that core.
 */
@AutoConfiguration(after = ReplAutoConfiguration.class,
        afterName = "org.springframework.boot.actuate.autoconfigure.metrics.MetricsAutoConfiguration")
@ConditionalOnClass(name = "io.micrometer.core.instrument.MeterRegistry")
public class ReplMetricsAutoConfiguration {
}
