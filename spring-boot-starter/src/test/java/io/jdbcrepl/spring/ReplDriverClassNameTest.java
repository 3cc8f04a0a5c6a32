package io.jdbcrepl.spring;

import io.jdbcrepl.ReplDriver;
import org.junit.jupiter.api.Test;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.context.properties.source.ConfigurationPropertySources;
import org.springframework.core.env.MapPropertySource;
import org.springframework.core.env.StandardEnvironment;

import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

class ReplDriverClassNameTest {

    private static final String DRIVER = "spring.datasource.driver-class-name";

    @Test
    void aReplUrlGetsTheReplDriver() {
        assertThat(environment(Map.of("spring.datasource.url", "jdbc:repl:postgresql://db1/shop")).getProperty(DRIVER))
                .isEqualTo(ReplDriver.class.getName());
    }

    @Test
    void anotherUrlGetsNothing() {
        assertThat(environment(Map.of("spring.datasource.url", "jdbc:postgresql://db1/shop")).getProperty(DRIVER)).isNull();
        assertThat(environment(Map.of()).getProperty(DRIVER)).isNull();
    }

    @Test
    void aDriverTheApplicationNamesWins() {
        assertThat(environment(Map.of("spring.datasource.url", "jdbc:repl:postgresql://db1/shop",
                "spring.datasource.driverClassName", "com.acme.Driver")).getProperty(DRIVER)).isEqualTo("com.acme.Driver");
        StandardEnvironment defaults = environment(Map.of("spring.datasource.url", "jdbc:repl:postgresql://db1/shop"));
        defaults.getPropertySources().addLast(new MapPropertySource("defaultProperties", Map.of(DRIVER, "com.acme.Driver")));
        assertThat(defaults.getProperty(DRIVER)).isEqualTo("com.acme.Driver");
    }

    @Test
    void aUrlSetAfterTheEnvironmentWasPreparedCounts() {
        StandardEnvironment environment = environment(Map.of());
        environment.getPropertySources().addFirst(new MapPropertySource("dynamic",
                Map.of("spring.datasource.url", "jdbc:repl:mariadb://db1/shop")));
        assertThat(environment.getProperty(DRIVER)).isEqualTo(ReplDriver.class.getName());
    }

    private static StandardEnvironment environment(Map<String, Object> properties) {
        StandardEnvironment environment = new StandardEnvironment();
        environment.getPropertySources().addFirst(new MapPropertySource("application", properties));
        ConfigurationPropertySources.attach(environment);
        new ReplDriverClassName().postProcessEnvironment(environment, new SpringApplication());
        return environment;
    }
}
