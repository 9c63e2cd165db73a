/// <reference types="unplugin-site-skills/client" />
/// <reference types="vite/client" />
