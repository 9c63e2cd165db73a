/// <reference types="unplugin-site-skills/client" />
