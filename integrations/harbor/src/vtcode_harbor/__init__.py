"""vtcode in Harbor jobs: `harbor run -a vtcode_harbor.agent:VTCodeAgent --ak artifact=...`."""
