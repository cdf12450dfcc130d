package org.topupbatch.routes;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Properties;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import org.junit.jupiter.api.Test;

/**
 * application.properties names every route file one by one (a wildcard costs a scan of the whole
 * jar at each start): a file added to routes/ without its name there would silently never run.
 * And the product's stages are steps with ids of their names, which metrics and traces show.
 */
class RouteFilesTest {

    @Test
    void every_route_file_is_named_in_the_include_pattern() throws IOException {
        Properties properties = new Properties();
        try (InputStream in = getClass().getResourceAsStream("/application.properties")) {
            properties.load(in);
        }
        String include = properties.getProperty("camel.main.routes-include-pattern");
        assertThat(include).as("camel.main.routes-include-pattern").doesNotContain("*");
        Set<String> named = Arrays.stream(include.split(",")).map(String::trim).collect(Collectors.toCollection(TreeSet::new));
        Set<String> files;
        try (var list = Files.list(Path.of("routes"))) {
            files = list.map(f -> f.getFileName().toString()).filter(n -> n.endsWith(".yaml"))
                    .map(n -> "classpath:routes/" + n).collect(Collectors.toCollection(TreeSet::new));
        }
        assertThat(files).as("routes/*.yaml").isNotEmpty();
        assertThat(named).as("route files named in application.properties").isEqualTo(files);
    }

    @Test
    void the_stages_are_steps_named_by_their_ids() throws IOException {
        Set<String> ids = new TreeSet<>();
        ObjectMapper yaml = new ObjectMapper(new YAMLFactory());
        try (var list = Files.list(Path.of("routes"))) {
            for (Path f : list.filter(f -> f.getFileName().toString().endsWith(".yaml")).toList()) {
                collectIds(yaml.readTree(f.toFile()), ids);
            }
        }
        assertThat(ids).contains("pick-up", "validate-and-record", "throttle", "sign", "submit-to-provider",
                "record-outcome", "record-failure", "due-orders", "reconcile", "poll", "aggregate", "report-if-due");
    }

    private static void collectIds(JsonNode node, Set<String> ids) {
        if (node.isObject() && node.path("id").isTextual()) {
            ids.add(node.get("id").asText());
        }
        node.forEach(child -> collectIds(child, ids));
    }
}
