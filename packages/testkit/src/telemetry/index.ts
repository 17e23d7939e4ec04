export { captureTelemetry, metricTotals, type TelemetryCapture } from "./telemetry-capture.js";
