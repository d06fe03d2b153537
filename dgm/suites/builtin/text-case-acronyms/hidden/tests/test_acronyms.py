from casing import split_words, to_camel, to_constant, to_kebab, to_pascal, to_snake


def test_acronym_followed_by_word():
    assert split_words("HTTPServer") == ["HTTP", "Server"]
    assert split_words("parseXMLFile") == ["parse", "XML", "File"]
    assert split_words("XMLHttpRequest") == ["XML", "Http", "Request"]
    assert split_words("IOError") == ["IO", "Error"]


def test_acronym_at_the_end():
    assert split_words("userID") == ["user", "ID"]
    assert split_words("ID") == ["ID"]
    assert split_words("backupToS3") == ["backup", "To", "S3"]
    assert split_words("request_URL") == ["request", "URL"]


def test_acronym_with_digits():
    assert split_words("getHTTP2Response") == ["get", "HTTP2", "Response"]


def test_to_snake_with_acronyms():
    assert to_snake("HTTPServer") == "http_server"
    assert to_snake("userID") == "user_id"
    assert to_snake("parseXMLFile") == "parse_xml_file"
    assert to_snake("XMLHttpRequest") == "xml_http_request"


def test_other_styles_with_acronyms():
    assert to_kebab("IOError") == "io-error"
    assert to_kebab("enableSSLVerification") == "enable-ssl-verification"
    assert to_constant("apiURL") == "API_URL"
    assert to_constant("XMLHttpRequest") == "XML_HTTP_REQUEST"
    assert to_pascal("HTTPServer") == "HttpServer"
    assert to_camel("userID") == "userId"
    assert to_camel("HTTPServer") == "httpServer"


def test_plain_words_unchanged():
    assert split_words("userName") == ["user", "Name"]
    assert split_words("UserNameField") == ["User", "Name", "Field"]
    assert split_words("utf8Encoder") == ["utf8", "Encoder"]
    assert split_words("aB") == ["a", "B"]
    assert split_words("A") == ["A"]
    assert to_snake("MyClass") == "my_class"
