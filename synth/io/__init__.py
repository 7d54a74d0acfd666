"""Files and folders: storage locations, YAML and atomic writes, output shards and
manifests, versioned dataset roots."""
