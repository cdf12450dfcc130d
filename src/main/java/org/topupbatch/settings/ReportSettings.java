package org.topupbatch.settings;

import java.nio.charset.Charset;
import java.util.List;
import java.util.Locale;
import java.util.function.Function;

/**
 * How reports are written.
 *
 * @param xlsx    an Excel workbook beside each CSV result
 * @param charset null: each report in the encoding its batch came in
 */
public record ReportSettings(boolean xlsx, Charset charset) {

    static final Setting<Boolean> FORMATS = Setting.of("topup.report.formats", "csv",
            "csv,xlsx also writes each result as an Excel workbook", ReportSettings::xlsx);
    static final Setting<Charset> CHARSET = Setting.of("topup.report.charset", null,
            "the encoding of NAME.result.csv", SettingChecks::charset);

    static final List<Setting<?>> DECLARED = List.of(FORMATS, CHARSET);

    static ReportSettings load(Function<String, String> lookup) {
        return new ReportSettings(FORMATS.read(lookup), CHARSET.read(lookup));
    }

    private static boolean xlsx(String key, String written) {
        String v = written.toLowerCase(Locale.ROOT).replace(" ", "");
        if (v.equals("csv")) {
            return false;
        }
        if (v.equals("csv,xlsx") || v.equals("xlsx,csv") || v.equals("xlsx")) {
            return true;
        }
        throw new SettingsException(key + ": '" + v + "' is not csv or csv,xlsx (the CSV result is"
                + " always written; xlsx adds NAME.result.xlsx)");
    }
}
