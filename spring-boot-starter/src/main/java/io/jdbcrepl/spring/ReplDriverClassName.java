package io.jdbcrepl.spring;

import io.jdbcrepl.ReplDriver;
import io.jdbcrepl.config.ReplUrl;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.env.EnvironmentPostProcessor;
import org.springframework.core.Ordered;
import org.springframework.core.env.ConfigurableEnvironment;
import org.springframework.core.env.PropertySource;

/**
 * Names {@link ReplDriver} as {@code spring.datasource.driver-class-name} when
 * {@code spring.datasource.url} is a {@code jdbc:repl:} URL: Spring Boot cannot tell the driver
 * from such a URL and fails with "Failed to determine a suitable driver class". The property
 * source is last (every other source wins) and reads the URL when asked, so a URL that a later
 * source sets (a test's dynamic properties) counts too.
 */
public class ReplDriverClassName implements EnvironmentPostProcessor, Ordered {

    static final String SOURCE = "jdbcReplDriverClassName";

    @Override
    public void postProcessEnvironment(ConfigurableEnvironment environment, SpringApplication application) {
        if (!environment.getPropertySources().contains(SOURCE)) {
            environment.getPropertySources().addLast(new DriverClassSource(environment));
        }
    }

    /** After Boot's own (the config files are read by then). */
    @Override
    public int getOrder() {
        return Ordered.LOWEST_PRECEDENCE;
    }

    /**
     * Not a {@code PropertySource<Environment>}: Boot would read such a source as a nested environment,
     * whose sources include this one, without end.
     */
    private static final class DriverClassSource extends PropertySource<Object> {

        private static final String DRIVER_CLASS = "spring.datasource.driver-class-name";
        private final ConfigurableEnvironment environment;

        DriverClassSource(ConfigurableEnvironment environment) {
            super(SOURCE);
            this.environment = environment;
        }

        @Override
        public Object getProperty(String name) {
            if (!DRIVER_CLASS.equals(name)) return null;
            // Boot's default properties are moved behind this source; a driver named there still wins
            PropertySource<?> defaults = environment.getPropertySources().get("defaultProperties");
            if (defaults != null && defaults.containsProperty(DRIVER_CLASS)) return null;
            String url = environment.getProperty("spring.datasource.url");
            return url != null && url.startsWith(ReplUrl.PREFIX) ? ReplDriver.class.getName() : null;
        }
    }
}
